/**
 * The app as a library, for what starts it in-process (the sandbox, benchmarks): build and start
 * it from a validated configuration. `main.ts` is the process entry that reads the environment.
 */
export { type AppOptions, type RunningApp, startApp } from './compose.js';
export { type Config, ConfigError, LOG_LEVELS, type LogLevel, loadConfig } from './config.js';
