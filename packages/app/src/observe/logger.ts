/**
 * The app's logger: pino underneath, Bolt's Logger interface on top (Bolt, its receiver and the
 * Slack Web API clients all take that interface), so that every line, ours or a library's, comes
 * out in one format. Each line carries the id of the Slack request it was written for (see
 * context.ts), and passes the scrubber (redact.ts) on its way out.
 *
 * Formats: `json`, one object per line with `level`, `time` and `msg`, for machines; `pretty`,
 * one short line for a person at a terminal.
 *
 * The scrubber reads the message and the fields before they are written, never the JSON line: a
 * pattern that matched inside the line could take the backslash of an escaped quote with it (a
 * URL inside a request body that the Web API client logs) and leave a line that no collector can
 * read, with no `msg` to show.
 */
import { formatWithOptions } from 'node:util';
import type { Logger, LogLevel } from '@slack/bolt';
import pino from 'pino';
import { currentRequest } from './context.js';
import { createScrubber } from './redact.js';

type LogFormat = 'json' | 'pretty';
type Level = 'debug' | 'info' | 'warn' | 'error';

/** Where finished lines go: anything with `write(line)`. */
export interface LogDestination {
  write(line: string): unknown;
}

interface LoggerOptions {
  level: Level;
  format: LogFormat;
  /** Exact values that must never be printed (tokens, client secrets, keys). */
  secrets: readonly (string | undefined)[];
  /** Stdout, written synchronously, unless given (tests capture lines with it). */
  destination?: LogDestination;
}

/** Bolt's Logger, plus structured lines for the app's own events. */
interface AppLogger extends Logger {
  /** One line with `fields` beside the message (`operation`, `status`, `durationMs`...). */
  event(level: Level, fields: Record<string, unknown>, msg: string): void;
}

const LEVELS: readonly Level[] = ['debug', 'info', 'warn', 'error'];

/** Bolt passes printf-style arguments and objects; one line of text keeps each record whole. */
function text(args: unknown[]): string {
  return formatWithOptions({ breakLength: Number.POSITIVE_INFINITY, depth: 4 }, ...args);
}

/**
 * The app's own structured line, `logger.warn({ msg, ...fields })`: a message that names its
 * fields (`channel {channel_id} unbound`), written with their values filled in for whoever reads
 * it, and the values beside it as fields, so that a collector can filter lines by field.
 */
function isLine(value: unknown): value is { msg: string } & Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return (
    (proto === Object.prototype || proto === null) &&
    typeof (value as { msg?: unknown }).msg === 'string'
  );
}

/**
 * A line as one text, for loggers that take text (a test's): a structured line's message with
 * each `{field}` replaced by its value, else the arguments formatted as Bolt's console would.
 */
export function lineText(args: unknown[]): string {
  const [first] = args;
  if (args.length !== 1 || !isLine(first)) return text(args);
  const { msg, ...fields } = first;
  return msg.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(fields, name) ? String(fields[name]) : whole,
  );
}

/** A JSON line as a person reads it: time, level, request id, message, then the other fields. */
export function prettyLine(json: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const { time, level, msg, requestId, pid: _pid, hostname: _host, ...rest } = record;
  const clock = typeof time === 'string' ? time.slice(11, 23) : '';
  const fields = Object.entries(rest)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  const id = typeof requestId === 'string' ? ` [${requestId}]` : '';
  return `${clock} ${String(level).toUpperCase().padEnd(5)}${id} ${String(msg ?? '')}${fields ? ` ${fields}` : ''}\n`;
}

/** Every text in a line's fields through the scrubber, however deep. */
function scrubbed(value: unknown, scrub: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return scrub(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => scrubbed(item, scrub, depth + 1));
  const proto = Object.getPrototypeOf(value);
  // An Error, a Date or anything deeper than a line needs: its text, scrubbed like the rest.
  if ((proto !== Object.prototype && proto !== null) || depth > 8) return scrub(text([value]));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = scrubbed(item, scrub, depth + 1);
  return out;
}

export function createLogger(options: LoggerOptions): AppLogger {
  const scrub = createScrubber(options.secrets);
  const out = options.destination ?? pino.destination({ dest: 1, sync: true });
  const stream =
    options.format === 'pretty' ? { write: (line: string) => out.write(prettyLine(line)) } : out;
  const base = pino(
    {
      level: options.level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // Read at the moment of the call, so the line names the request it was written for.
      mixin() {
        const request = currentRequest();
        if (!request) return {};
        return request.kind
          ? { requestId: request.requestId, kind: request.kind }
          : { requestId: request.requestId };
      },
    },
    stream,
  );
  let name: string | undefined;
  const write = (level: Level, fields: Record<string, unknown>, msg: string) => {
    const all = name === undefined ? fields : { name, ...fields };
    base[level](scrubbed(all, scrub) as Record<string, unknown>, scrub(msg));
  };
  const at =
    (level: Level) =>
    (...args: unknown[]) => {
      // Formatting a debug line's objects costs more than the check.
      if (!base.isLevelEnabled(level)) return;
      const [first] = args;
      if (args.length === 1 && isLine(first)) {
        const { msg: _template, ...fields } = first;
        write(level, fields, lineText(args));
        return;
      }
      write(level, {}, text(args));
    };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    setLevel(level: LogLevel) {
      if ((LEVELS as readonly string[]).includes(level)) base.level = level;
    },
    getLevel: () => base.level as LogLevel,
    setName(value: string) {
      name = value;
    },
    event(level, fields, msg) {
      if (base.isLevelEnabled(level)) write(level, fields, msg);
    },
  };
}

/**
 * Writes a structured line through any Bolt Logger: the fields stay fields on the app's own
 * logger, and become `key=value` text on another (a test's).
 */
export function logEvent(
  logger: Logger,
  level: Level,
  fields: Record<string, unknown>,
  msg: string,
): void {
  const own = logger as Partial<AppLogger>;
  if (typeof own.event === 'function') {
    own.event(level, fields, msg);
    return;
  }
  const pairs = Object.entries(fields).map(([key, value]) => `${key}=${String(value)}`);
  logger[level]([msg, ...pairs].join(' '));
}
