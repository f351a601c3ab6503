/** The receipt engine's public surface: the reader, its results, and the intake's limits. */
export {
  createReceiptReader,
  type ReadOptions,
  type ReceiptReader,
  type ReceiptReaderEvent,
  type ReceiptReaderOptions,
} from './engine.js';
export { DEFAULT_INTAKE_LIMITS, type IntakeLimits } from './intake.js';
export * from './types.js';
