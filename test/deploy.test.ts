/**
 * The compose files in deploy/ cannot be started here (no Docker engine), so these checks hold
 * them to what the app reads and to what two replicas need from each other.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

interface Service {
  image?: string;
  build?: { context?: string; dockerfile?: string };
  environment?: Record<string, string> | string[];
  ports?: string[];
  volumes?: string[];
  deploy?: { replicas?: number };
  depends_on?: Record<string, { condition?: string }>;
}
interface Compose {
  services: Record<string, Service>;
  'x-app-environment'?: Record<string, string>;
}

const FILES = [
  { file: 'deploy/compose.yaml', scheme: 'postgres:', store: 'postgres' },
  { file: 'deploy/compose.redis.yaml', scheme: 'redis:', store: 'redis' },
];

function load(file: string): Compose {
  // Compose resolves YAML merge keys (<<), which the yaml package does only when asked.
  return parse(readFileSync(file, 'utf8'), { merge: true }) as Compose;
}

function environmentOf(service: Service): Map<string, string> {
  const env = service.environment ?? {};
  const entries = Array.isArray(env)
    ? env.map((line): [string, string] => {
        const at = line.indexOf('=');
        return at === -1 ? [line, ''] : [line.slice(0, at), line.slice(at + 1)];
      })
    : Object.entries(env).map(([name, value]): [string, string] => [name, String(value)]);
  return new Map(entries);
}

// The names the app reads are the keys of the RULES table in the app's config.ts; read as text so that
// this test does not depend on how that module exports them.
const configText = readFileSync('packages/app/src/config.ts', 'utf8');
const rulesBlock = /^const RULES = \{\n([\s\S]*?)^\} as const/m.exec(configText)?.[1] ?? '';
const ruleNames = new Set([...rulesBlock.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!));
const defaultsBlock = /^export const DEFAULTS = \{\n([\s\S]*?)^\} as const/m.exec(configText)?.[1];
const defaulted = new Set(
  [...(defaultsBlock ?? '').matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!),
);
/** Required by a rule (`required: true`, or an `httpUrl(...)` rule) and without a default. */
const requiredNames = [...rulesBlock.matchAll(/^ {2}([A-Z][A-Z0-9_]*): (\{[^}]*\}|httpUrl)/gm)]
  .filter(([, , body]) => body === 'httpUrl' || /required: true/.test(body!))
  .map((m) => m[1]!)
  .filter((name) => !defaulted.has(name));

describe("the rules read from the app's config.ts", () => {
  it('find the variables the app reads, the required ones among them', () => {
    for (const name of [
      'SLACK_BOT_TOKEN',
      'SLACK_STATE_SECRET',
      'STORE_URL',
      'ENCRYPTION_KEY',
      'PUBLIC_URL',
    ]) {
      expect(ruleNames.has(name), name).toBe(true);
    }
    expect(defaulted.has('STORE_URL')).toBe(true);
    expect(requiredNames).toEqual(expect.arrayContaining(['PUBLIC_URL', 'SERVICE_CLIENT_SECRET']));
    // One of the two is required (one workspace or many), which config.ts checks across fields.
    expect(requiredNames).not.toContain('SLACK_BOT_TOKEN');
    expect(requiredNames).not.toContain('SLACK_STATE_SECRET');
    expect(requiredNames).not.toContain('STORE_URL');
    expect(requiredNames).not.toContain('SLACK_APP_TOKEN');
  });
});

describe.each(FILES)('$file', ({ file, scheme, store }) => {
  const compose = load(file);
  const app = compose.services.app!;
  const env = environmentOf(app ?? {});

  it('runs two replicas of the app built from this repository', () => {
    expect(app).toBeDefined();
    expect(app.build?.context).toBe('..');
    expect(
      existsSync(join('deploy', app.build!.context!, app.build?.dockerfile ?? 'Dockerfile')),
    ).toBe(true);
    expect(app.deploy?.replicas).toBe(2);
  });

  it('sets only variables the app reads', () => {
    expect(env.size).toBeGreaterThan(0);
    const unknown = [...env.keys()].filter(
      (name) => !ruleNames.has(name) && name !== 'NODE_ENV' && name !== 'LOG_LEVEL',
    );
    expect(unknown).toEqual([]);
  });

  it('sets every variable the app requires, in production mode', () => {
    const missing = requiredNames.filter((name) => !env.has(name));
    expect(missing).toEqual([]);
    expect(env.get('NODE_ENV')).toBe('production');
    // Slack's request signatures are checked in HTTP mode, which the proxy serves.
    expect(env.has('SLACK_SIGNING_SECRET')).toBe(true);
    expect(env.has('SLACK_APP_TOKEN')).toBe(false);
  });

  it('gives both replicas one encryption key, required rather than generated per container', () => {
    expect(env.get('ENCRYPTION_KEY')).toMatch(/^\$\{ENCRYPTION_KEY:\?[^}]+\}$/);
  });

  it(`shares one ${store} store between the replicas, started and healthy before them`, () => {
    const url = new URL(env.get('STORE_URL')!.replace(/\$\{[^}]*\}/g, 'x'));
    expect(url.protocol).toBe(scheme);
    expect(Object.hasOwn(compose.services, url.hostname), url.hostname).toBe(true);
    expect(app.depends_on?.[url.hostname]?.condition).toBe('service_healthy');
    expect(compose.services[url.hostname]!.image).toMatch(new RegExp(`^${store}:\\d`));
  });

  it('publishes one port, the proxy, which forwards to the app service', () => {
    const published = Object.entries(compose.services).filter(([, s]) => s.ports !== undefined);
    expect(published.map(([name]) => name)).toEqual(['proxy']);
    const proxy = compose.services.proxy!;
    expect(proxy.image).toMatch(/^nginx:\d/);
    const mount = proxy.volumes?.find((v) => v.endsWith(':/etc/nginx/conf.d/default.conf:ro'));
    expect(mount).toBeDefined();
    const conf = readFileSync(join('deploy', mount!.split(':')[0]!), 'utf8');
    const port = /^\s*listen (\d+);/m.exec(conf)?.[1];
    expect(proxy.ports).toEqual([`\${HTTP_PORT:-8080}:${port}`]);
    expect(conf).toMatch(/^\s*server app:3000\b/m);
    expect(conf).toMatch(/^\s*proxy_pass http:\/\/split_app;/m);
  });

  it('serves /metrics on a port of its own, which the proxy does not forward', () => {
    const port = /^\$\{METRICS_PORT:-(\d+)\}$/.exec(env.get('METRICS_PORT') ?? '')?.[1];
    expect(port).toBeDefined();
    expect(port).not.toBe('3000');
    expect(env.has('PORT')).toBe(false);
    const conf = readFileSync(join('deploy', 'nginx.conf'), 'utf8');
    expect([...conf.matchAll(/^\s*server (\S+:\d+)/gm)].map((m) => m[1])).toEqual(['app:3000']);
  });
});

describe('the two compose files', () => {
  it('give the app the same settings apart from the store', () => {
    const [postgres, redis] = FILES.map(({ file }) => environmentOf(load(file).services.app!));
    postgres!.delete('STORE_URL');
    redis!.delete('STORE_URL');
    expect(Object.fromEntries(redis!)).toEqual(Object.fromEntries(postgres!));
  });

  it('are documented by an example environment naming each variable they require', () => {
    const example = readFileSync('deploy/.env.example', 'utf8');
    for (const { file } of FILES) {
      const required = [...readFileSync(file, 'utf8').matchAll(/\$\{([A-Z_]+):\?/g)].map(
        (m) => m[1]!,
      );
      expect(required.length).toBeGreaterThan(0);
      for (const name of required)
        expect(example, `${file}: ${name}`).toMatch(new RegExp(`^${name}=`, 'm'));
    }
  });
});

describe("the README's section for the workspace admin", () => {
  const readme = readFileSync('README.md', 'utf8');
  const section = /^## For the workspace admin\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
  const manifest = parse(readFileSync('manifest.yml', 'utf8')) as {
    oauth_config: { scopes: { bot: string[]; user: string[] } };
  };

  it('comes right after "Running the Slack app"', () => {
    const headings = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    const at = headings.indexOf('For the workspace admin');
    expect(at).toBeGreaterThan(0);
    expect(headings[at - 1]).toBe('Running the Slack app');
  });

  it('says why the app needs each scope the manifest asks for, and of which kind', () => {
    const rows = new Map(
      [...section.matchAll(/^\| `([a-z_:.]+)` \| (bot|user) \| (.+) \|$/gm)].map((m) => [
        m[1]!,
        { kind: m[2], why: m[3]! },
      ]),
    );
    const asked = [
      ...manifest.oauth_config.scopes.bot.map((scope) => [scope, 'bot'] as const),
      ...manifest.oauth_config.scopes.user.map((scope) => [scope, 'user'] as const),
    ];
    expect(asked.length).toBeGreaterThan(0);
    for (const [scope, kind] of asked) {
      expect(rows.get(scope)?.kind, scope).toBe(kind);
      expect(rows.get(scope)?.why.length, scope).toBeGreaterThan(20);
    }
    expect([...rows.keys()].sort()).toEqual(asked.map(([scope]) => scope).sort());
  });

  it('names the service, its callback, the store document, and every way to remove data', () => {
    for (const needed of [
      'https://secure.splitwise.com',
      '`PUBLIC_URL/oauth/callback`',
      '[packages/app/src/store/README.md](packages/app/src/store/README.md)',
      '`/split disconnect`',
      '**Remove my data**',
      '`app_uninstalled`',
      'Remove App',
    ]) {
      expect(section, needed).toContain(needed);
    }
  });
});

describe('LICENSE', () => {
  it('is the MIT licence package.json names', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { license: string };
    const text = readFileSync('LICENSE', 'utf8');
    expect(pkg.license).toBe('MIT');
    expect(text.split('\n')[0]).toBe('MIT License');
    expect(text).toContain('Copyright (c) 2026 the slack-split authors');
  });
});
