/** The `/split` parser's public surface; the other modules of this folder are its inside. */
export { type AmountReading, parseAmount } from './amounts.js';
export { parseSum } from './arithmetic.js';
export { DEFAULT_EXAMPLE } from './group-settings.js';
export { HELP_SECTIONS } from './help.js';
export { cutToCommandCap, MAX_COMMAND_CHARS, parseCommand } from './parse.js';
export { PAY_EXAMPLE, REMIND_EXAMPLE } from './payment.js';
export { resolveMe } from './resolve.js';
export {
  type DateRange,
  DEFAULT_DESCRIPTION,
  type DefaultSplit,
  type HelpSection,
  type ListFilters,
  MAX_AMOUNT_MAJOR,
  ME,
  type ParseContext,
  type ParsedExpense,
  type ParsedPayment,
  type ParseResult,
} from './types.js';
