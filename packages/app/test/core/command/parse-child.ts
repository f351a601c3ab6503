/**
 * parseCommand in a process of its own, one text per IPC message, for prototype-keys.e2e.test.ts: a
 * parse that never returns can then be stopped from outside instead of blocking the test run.
 * Each reply is the result as JSON, with anything that is not plain data spelled out so that the
 * test sees it: a String object or a function would otherwise pass through JSON unnoticed.
 */
import { type ParseContext, parseCommand } from '../../../src/core/command/index.js';

const ctx: ParseContext = { today: '2026-11-21', defaultCurrency: 'USD' };

function plain(_key: string, value: unknown): unknown {
  if (typeof value === 'function') return `function ${value.name}`;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return Object.prototype.toString.call(value);
  }
  return value;
}

process.on('message', (text: string) => {
  let reply: { json: string } | { threw: string };
  try {
    reply = { json: JSON.stringify(parseCommand(text, ctx), plain) };
  } catch (error) {
    reply = { threw: String(error) };
  }
  process.send?.(reply);
});
process.send?.('ready');
