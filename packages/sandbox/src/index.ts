/** The sandbox: the emulator, the simulated workspace and the app, started together. */
export { runSandbox, type SandboxSettings } from './run.js';
export { type RunningSandbox, type SandboxOptions, startSandbox } from './sandbox.js';
