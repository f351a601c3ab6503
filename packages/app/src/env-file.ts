/**
 * The `.env` file: NAME=value lines that supply configuration the real environment does not.
 *
 * Parsed here rather than by Node's util.parseEnv or process.loadEnvFile because those accept
 * malformed lines silently (Node 20 even glues a stray line onto the next variable's name), and
 * differ between Node versions; a typo in a deployment's .env must stop the start with the line
 * number instead. Problems name lines and variables, never values: the file holds secrets.
 *
 * Syntax, the common subset of dotenv and Node's --env-file:
 *   # a comment line, and blank lines
 *   NAME=value               surrounding spaces trimmed; " #" starts a trailing comment
 *   export NAME=value        the shell's form, same meaning
 *   NAME='value'             literal
 *   NAME="a\nb"              \n is a newline; the closing quote ends the value on the same line
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from './config.js';

const LINE = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/;

/** The value part of a line, or an error text when it is malformed. */
function parseValue(text: string): { value: string } | { error: string } {
  const quote = text[0];
  if (quote === '"' || quote === "'") {
    const end = text.indexOf(quote, 1);
    if (end === -1) return { error: 'its quoted value has no closing quote on the same line' };
    const rest = text.slice(end + 1).trim();
    if (rest !== '' && !rest.startsWith('#')) {
      return { error: 'has text after the closing quote' };
    }
    const inner = text.slice(1, end);
    return { value: quote === '"' ? inner.replaceAll('\\n', '\n') : inner };
  }
  const comment = /\s#/.exec(text);
  return { value: (comment ? text.slice(0, comment.index) : text).trim() };
}

/**
 * The variables a .env text sets, in file order. Every malformed line and every variable set twice
 * is reported at once; `label` names the file in those problems.
 */
export function parseEnvFile(text: string, label = '.env'): Map<string, string> {
  const values = new Map<string, string>();
  const firstLine = new Map<string, number>();
  const problems: string[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, index) => {
    const number = index + 1;
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const match = LINE.exec(line);
    if (!match) {
      problems.push(`${label} line ${number} is not NAME=value`);
      return;
    }
    const name = match[1]!;
    const parsed = parseValue(match[2]!);
    if ('error' in parsed) {
      problems.push(`${label} line ${number} (${name}) ${parsed.error}`);
      return;
    }
    const earlier = firstLine.get(name);
    if (earlier !== undefined) {
      problems.push(`${label} line ${number} sets ${name} again (first on line ${earlier})`);
      return;
    }
    firstLine.set(name, number);
    values.set(name, parsed.value);
  });
  if (problems.length > 0) throw new ConfigError(problems);
  return values;
}

/**
 * Reads and parses the file; undefined when there is none, since a deployment may configure
 * everything through the environment. Any other failure to read it is a ConfigError.
 */
export function readEnvFile(path = '.env', label = '.env'): Map<string, string> | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new ConfigError([`${label} cannot be read (${code ?? (error as Error).message})`]);
  }
  return parseEnvFile(text, label);
}
