/**
 * Environment (and .env file) -> typed, validated Config. Pure: the caller (main.ts) hands in the
 * environment and the file's variables, so nothing below main.ts reads process.env and tests pass
 * plain objects.
 *
 * Every problem is collected and reported at once, one line per variable, naming where its value
 * came from, so a person fixing a deployment sees the whole list on the first start and knows which
 * place to edit. Values are never echoed: several are secrets.
 */
import { dirname, resolve } from 'node:path';
import { decodeEncryptionKey } from './store/encryption-key.js';

export const DEFAULTS = {
  SLACK_WEB_URL: 'https://slack.com',
  SERVICE_API_URL: 'https://secure.splitwise.com/api/v3.0',
  SERVICE_AUTHORIZE_URL: 'https://secure.splitwise.com/oauth/authorize',
  SERVICE_TOKEN_URL: 'https://secure.splitwise.com/oauth/token',
  PORT: '3000',
  STORE_URL: 'sqlite://./data/app.sqlite',
  LOG_LEVEL: 'info',
} as const;

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
const LOG_FORMATS = ['json', 'pretty'] as const;
type LogFormat = (typeof LOG_FORMATS)[number];

export interface Config {
  slack: {
    /** xoxb- bot token: the app serves this one workspace. Undefined exactly when `install` is set. */
    botToken: string | undefined;
    /**
     * Set when the app is installed into many workspaces through Slack's OAuth v2 (no bot token
     * configured): the secret that signs the install's `state`, and the redirect URL Slack sends
     * the browser back to, `${publicUrl}/slack/oauth_redirect`.
     */
    install: { stateSecret: string; redirectUrl: string } | undefined;
    /** Verifies every HTTP request from Slack; unused (and optional) in Socket Mode. */
    signingSecret: string | undefined;
    /** xapp- app-level token; when set the app runs in Socket Mode. */
    appToken: string | undefined;
    socketMode: boolean;
    /** Web API base ending in '/', e.g. http://127.0.0.1:4100/api/; undefined = slack.com. */
    apiUrl: string | undefined;
    /**
     * Slack's browser pages, no trailing slash: Sign in with Slack's authorize page is
     * `${webUrl}/openid/connect/authorize` (its id_tokens are issued by this URL), and the install
     * page `${webUrl}/oauth/v2/authorize`.
     */
    webUrl: string;
    /** The Slack app's own OAuth client, with which people sign in with Slack while linking. */
    clientId: string;
    clientSecret: string;
  };
  service: {
    /** REST base without a trailing slash, e.g. https://secure.splitwise.com/api/v3.0 */
    apiUrl: string;
    authorizeUrl: string;
    tokenUrl: string;
    clientId: string;
    clientSecret: string;
  };
  /** Public base URL without a trailing slash; the OAuth redirect is `${publicUrl}/oauth/callback`. */
  publicUrl: string;
  oauthRedirectUrl: string;
  /** Where Slack sends the browser back after Sign in with Slack: `${publicUrl}/oauth/slack/callback`. */
  signInRedirectUrl: string;
  port: number;
  storeUrl: string;
  /** Directory for local state: the SQLite file's directory, or ./data for network stores. */
  dataDir: string;
  /** ENCRYPTION_KEY as given (already checked to decode to 32 bytes); undefined = generated file. */
  encryptionKey: string | undefined;
  logLevel: LogLevel;
  /** LOG_FORMAT; unset: json when NODE_ENV is production (log collectors), else pretty. */
  logFormat: LogFormat;
  /**
   * Where /metrics is served: on `port` alone when set (0: any free port), else on the public port
   * when `token` is set; nowhere when neither is. With a token, a scrape must carry it as a bearer.
   */
  metrics: { port: number | undefined; token: string | undefined };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** The install's state is signed with it: as long as a random 128-bit value written in hex. */
const STATE_SECRET_MIN_LENGTH = 32;

/** A scrape's bearer token: a random secret, at least 128 bits written in hex. */
export const METRICS_TOKEN_MIN_LENGTH = 32;

/** Bolt's path for the end of an install (where Slack sends the browser back). */
export const INSTALL_REDIRECT_PATH = '/slack/oauth_redirect';

const STORE_SCHEMES = ['sqlite:', 'redis:', 'rediss:', 'postgres:', 'postgresql:'];

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** How one variable is checked once set; `required` ones are reported when missing. */
interface Rule {
  readonly required?: boolean;
  readonly valid?: (value: string) => boolean;
  /** Continues the variable's name (and where its value came from), see problemFor. */
  readonly problem?: string;
}

function httpUrl(what: string) {
  return { required: true, valid: isHttpUrl, problem: `must be an http(s) URL (${what})` } as const;
}

// Checked and reported in this order, one line per variable.
const RULES = {
  SLACK_BOT_TOKEN: {
    valid: (v: string) => v.startsWith('xoxb-'),
    problem: 'must be a bot token starting with xoxb-',
  },
  SLACK_SIGNING_SECRET: {},
  SLACK_APP_TOKEN: {
    valid: (v: string) => v.startsWith('xapp-'),
    problem: 'must be an app-level token starting with xapp- (or be left unset)',
  },
  SLACK_API_URL: {
    valid: isHttpUrl,
    problem: 'must be an http(s) URL such as http://127.0.0.1:4100/api/',
  },
  SLACK_WEB_URL: httpUrl("Slack's sign-in pages, such as https://slack.com"),
  SLACK_CLIENT_ID: { required: true },
  SLACK_CLIENT_SECRET: { required: true },
  SLACK_STATE_SECRET: {
    valid: (v: string) => v.length >= STATE_SECRET_MIN_LENGTH,
    problem: `must be at least ${STATE_SECRET_MIN_LENGTH} characters (a random secret, e.g. from openssl rand -hex 32)`,
  },
  SERVICE_API_URL: httpUrl('the expense service REST base'),
  SERVICE_AUTHORIZE_URL: httpUrl('the OAuth consent page'),
  SERVICE_TOKEN_URL: httpUrl('the OAuth token endpoint'),
  SERVICE_CLIENT_ID: { required: true },
  SERVICE_CLIENT_SECRET: { required: true },
  PUBLIC_URL: httpUrl('where /oauth/callback is reachable'),
  PORT: {
    required: true,
    valid: (v: string) => /^\d+$/.test(v) && Number(v) <= 65535,
    problem: 'must be a whole number from 0 to 65535',
  },
  STORE_URL: {
    required: true,
    valid: (v: string) => STORE_SCHEMES.some((s) => v.startsWith(`${s}//`)),
    problem: 'must start with sqlite://, redis://, rediss://, postgres:// or postgresql://',
  },
  ENCRYPTION_KEY: {
    valid: (v: string) => decodeEncryptionKey(v) !== undefined,
    problem: 'must be 32 bytes written as 64 hex digits or as base64 (44 characters)',
  },
  LOG_LEVEL: {
    required: true,
    valid: (v: string) => (LOG_LEVELS as readonly string[]).includes(v),
    problem: `must be one of ${LOG_LEVELS.join(', ')}`,
  },
  LOG_FORMAT: {
    valid: (v: string) => (LOG_FORMATS as readonly string[]).includes(v),
    problem: `must be one of ${LOG_FORMATS.join(', ')} (or be left unset)`,
  },
  METRICS_PORT: {
    valid: (v: string) => /^\d+$/.test(v) && Number(v) <= 65535,
    problem: 'must be a whole number from 0 to 65535 (or be left unset)',
  },
  METRICS_TOKEN: {
    valid: (v: string) => v.length >= METRICS_TOKEN_MIN_LENGTH && /^[\x21-\x7e]+$/.test(v),
    problem: `must be at least ${METRICS_TOKEN_MIN_LENGTH} characters without spaces (a random secret, e.g. from openssl rand -hex 32)`,
  },
} as const satisfies Record<string, Rule>;

type Name = keyof typeof RULES;
type RequiredName = {
  [K in Name]: (typeof RULES)[K] extends { required: true } ? K : never;
}[Name];
/** The variables once every rule has passed. */
type Checked = { [K in RequiredName]: string } & { [K in Exclude<Name, RequiredName>]?: string };

/** What a required variable is for, said when it is missing. */
const PURPOSES = new Map<string, string>([
  [
    'SLACK_BOT_TOKEN',
    'the bot token, xoxb-..., to serve one workspace; or set SLACK_STATE_SECRET instead to install the app into many workspaces',
  ],
  ['SLACK_SIGNING_SECRET', 'needed in HTTP mode, when SLACK_APP_TOKEN is not set'],
  [
    'SLACK_CLIENT_ID',
    "the Slack app's client id (Basic Information, App Credentials): people sign in with Slack with it to link their expense account",
  ],
  [
    'SLACK_CLIENT_SECRET',
    "the Slack app's client secret (Basic Information, App Credentials): people sign in with Slack with it to link their expense account",
  ],
  ['SERVICE_CLIENT_ID', "the app's OAuth client id at the expense service"],
  ['SERVICE_CLIENT_SECRET', "the app's OAuth client secret at the expense service"],
  ['PUBLIC_URL', 'where /oauth/callback is reachable'],
]);

/** sqlite://./data/app.sqlite -> ./data (resolved against cwd); ./data for network stores. */
export function dataDirFor(storeUrl: string, cwd = process.cwd()): string {
  if (storeUrl.startsWith('sqlite://')) {
    const file = storeUrl.slice('sqlite://'.length);
    if (file !== '' && file !== ':memory:') return dirname(resolve(cwd, file));
  }
  return resolve(cwd, 'data');
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Where a variable's value was read, as problems name it. */
type Origin = 'the environment' | '.env';

/**
 * The real environment wins over the .env file, as with dotenv and Node's --env-file: a variable
 * the environment defines, even as empty, is taken from there (so `FOO= npm start` unsets a FOO the
 * file sets). Null-prototype records: the names are typed by people.
 */
function merge(
  env: Record<string, string | undefined>,
  envFile: ReadonlyMap<string, string> | undefined,
): { raw: Record<string, string | undefined>; origins: Map<string, Origin> } {
  const raw: Record<string, string | undefined> = Object.create(null);
  const origins = new Map<string, Origin>();
  for (const [name, value] of envFile ?? []) {
    raw[name] = value;
    origins.set(name, '.env');
  }
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    raw[name] = value;
    origins.set(name, 'the environment');
  }
  return { raw, origins };
}

/**
 * Reads the configuration from the environment and, under it, the variables of a .env file.
 * Throws a ConfigError listing every problem, each naming its variable and where the value came
 * from, never the value.
 */
export function loadConfig(
  env: Record<string, string | undefined>,
  envFile?: ReadonlyMap<string, string>,
): Config {
  const { raw, origins } = merge(env, envFile);
  // An empty value (FOO= in an env file) means "not set", then defaults apply.
  const input: Record<string, string | undefined> = Object.create(null);
  for (const [name, value] of Object.entries(raw)) {
    const trimmed = value?.trim();
    input[name] = trimmed === '' ? undefined : trimmed;
  }
  for (const [name, value] of Object.entries(DEFAULTS)) {
    input[name] ??= value;
  }

  const problemFor = (name: string, problem?: string): string => {
    const origin = origins.get(name);
    if (problem !== undefined && input[name] !== undefined) {
      return `${name} (from ${origin ?? 'the defaults'}) ${problem}`;
    }
    const purpose = PURPOSES.get(name);
    const missing =
      origin === undefined
        ? `${name} is not set (in the environment or .env)`
        : `${name} (from ${origin}) is empty`;
    return purpose === undefined ? missing : `${missing}: ${purpose}`;
  };

  const problems: string[] = [];
  // Required unless the app is installed into many workspaces; first, as it is the first rule.
  if (input.SLACK_BOT_TOKEN === undefined && input.SLACK_STATE_SECRET === undefined) {
    problems.push(problemFor('SLACK_BOT_TOKEN'));
  }
  for (const [name, rule] of Object.entries(RULES) as [Name, Rule][]) {
    const value = input[name];
    if (value === undefined) {
      if (rule.required) problems.push(problemFor(name));
    } else if (rule.valid !== undefined && !rule.valid(value)) {
      problems.push(problemFor(name, rule.problem));
    }
  }
  // A cross-field rule, checked here so that it is reported together with the per-field ones.
  if (input.SLACK_APP_TOKEN === undefined && input.SLACK_SIGNING_SECRET === undefined) {
    problems.push(problemFor('SLACK_SIGNING_SECRET'));
  }
  // One workspace (a bot token) or many (installs, each with its own token): never both.
  if (input.SLACK_BOT_TOKEN !== undefined && input.SLACK_STATE_SECRET !== undefined) {
    problems.push(
      problemFor(
        'SLACK_STATE_SECRET',
        'is set together with SLACK_BOT_TOKEN: leave SLACK_STATE_SECRET unset to serve the one workspace of the bot token, or unset SLACK_BOT_TOKEN to install the app into many workspaces',
      ),
    );
  }
  // Metrics on the public port would be served to anyone: a port of its own, or PORT with a token.
  if (
    input.METRICS_PORT !== undefined &&
    input.METRICS_PORT !== '0' &&
    Number(input.METRICS_PORT) === Number(input.PORT)
  ) {
    problems.push(
      problemFor(
        'METRICS_PORT',
        'is the same port as PORT: give metrics a port of their own, or leave METRICS_PORT unset and set METRICS_TOKEN to serve them on PORT behind a bearer token',
      ),
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const e = input as Checked;
  const publicUrl = withoutTrailingSlash(e.PUBLIC_URL);
  const apiUrl =
    e.SLACK_API_URL === undefined ? undefined : `${withoutTrailingSlash(e.SLACK_API_URL)}/`;
  return {
    slack: {
      botToken: e.SLACK_BOT_TOKEN,
      install:
        e.SLACK_STATE_SECRET === undefined
          ? undefined
          : {
              stateSecret: e.SLACK_STATE_SECRET,
              redirectUrl: `${publicUrl}${INSTALL_REDIRECT_PATH}`,
            },
      signingSecret: e.SLACK_SIGNING_SECRET,
      appToken: e.SLACK_APP_TOKEN,
      socketMode: e.SLACK_APP_TOKEN !== undefined,
      apiUrl,
      webUrl: withoutTrailingSlash(e.SLACK_WEB_URL),
      clientId: e.SLACK_CLIENT_ID,
      clientSecret: e.SLACK_CLIENT_SECRET,
    },
    service: {
      apiUrl: withoutTrailingSlash(e.SERVICE_API_URL),
      authorizeUrl: e.SERVICE_AUTHORIZE_URL,
      tokenUrl: e.SERVICE_TOKEN_URL,
      clientId: e.SERVICE_CLIENT_ID,
      clientSecret: e.SERVICE_CLIENT_SECRET,
    },
    publicUrl,
    oauthRedirectUrl: `${publicUrl}/oauth/callback`,
    signInRedirectUrl: `${publicUrl}/oauth/slack/callback`,
    port: Number(e.PORT),
    storeUrl: e.STORE_URL,
    dataDir: dataDirFor(e.STORE_URL),
    encryptionKey: e.ENCRYPTION_KEY,
    logLevel: e.LOG_LEVEL as LogLevel,
    logFormat: (e.LOG_FORMAT ?? (input.NODE_ENV === 'production' ? 'json' : 'pretty')) as LogFormat,
    metrics: {
      port: e.METRICS_PORT === undefined ? undefined : Number(e.METRICS_PORT),
      token: e.METRICS_TOKEN,
    },
  };
}
