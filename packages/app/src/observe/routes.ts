/**
 * The operator's HTTP routes beside /healthz (liveness, in slack/linking/routes.ts): /readyz says
 * whether this replica can take work now (its store answers), /metrics serves the Prometheus
 * exposition where the operator chose: on a port of its own (METRICS_PORT), behind a bearer token
 * (METRICS_TOKEN), both, or nowhere. The series reveal traffic (who is busy, when), so the public
 * port never serves them without the token.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CustomRoute } from '@slack/bolt';
import type { Metrics } from './metrics.js';

/** Resolves with undefined when ready, otherwise with a short reason for the operator. */
export type Readiness = () => Promise<string | undefined>;

interface ObserveRouteOptions {
  metrics: Metrics;
  ready: Readiness;
  /** Whether /metrics is served on this (the public) port; it then needs `metricsToken`. */
  metricsHere: boolean;
  metricsToken: string | undefined;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time. */
export function bearerMatches(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization;
  const given = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}

/** GET /metrics: the exposition, or 401 without the token when one is configured. */
export function metricsHandler(
  metrics: Metrics,
  token: string | undefined,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (token !== undefined && !bearerMatches(req, token)) {
      res.writeHead(401, {
        'content-type': 'text/plain; charset=utf-8',
        'www-authenticate': 'Bearer realm="metrics"',
      });
      res.end('a bearer token is needed for /metrics\n');
      return;
    }
    void metrics.render().then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        res.end(body);
      },
      () => {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('metrics could not be collected\n');
      },
    );
  };
}

export function observeRoutes(options: ObserveRouteOptions): CustomRoute[] {
  const readyz: CustomRoute = {
    path: '/readyz',
    method: ['GET'],
    handler: (_req, res) => {
      void options.ready().then(
        (reason) => {
          res.writeHead(reason === undefined ? 200 : 503, {
            'content-type': 'application/json',
            'cache-control': 'no-store',
          });
          res.end(JSON.stringify(reason === undefined ? { ok: true } : { ok: false, reason }));
        },
        () => {
          res.writeHead(503, { 'content-type': 'application/json' });
          res.end('{"ok":false,"reason":"readiness check failed"}');
        },
      );
    },
  };
  if (!options.metricsHere || options.metricsToken === undefined) return [readyz];
  return [
    readyz,
    {
      path: '/metrics',
      method: ['GET'],
      handler: metricsHandler(options.metrics, options.metricsToken),
    },
  ];
}

/**
 * /metrics on a port of its own, on every interface (a scraper on the same network reaches it;
 * leave the port unpublished). Nothing else is served there.
 */
export async function startMetricsServer(
  port: number,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/metrics' && (req.method === 'GET' || req.method === 'HEAD')) {
      handler(req, res);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, port: (server.address() as AddressInfo).port };
}

interface StoreReadinessOptions {
  /** A store that has not answered by then is taken as down (it may be reconnecting). */
  timeoutMs: number;
  /** Told when readiness changes, not on every probe: probes come every few seconds. */
  onChange?: (reason: string | undefined, error?: Error) => void;
}

/**
 * Readiness from a cheap read of the store. The reason never carries the store's error message:
 * /readyz is unauthenticated, and a driver's message may name the host or the user.
 */
export function storeReadiness(
  ping: () => Promise<unknown>,
  options: StoreReadinessOptions,
): Readiness {
  let last: string | undefined;
  const report = (reason: string | undefined, error?: Error) => {
    if (reason !== last) options.onChange?.(reason, error);
    last = reason;
    return reason;
  };
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), options.timeoutMs);
      timer.unref();
    });
    try {
      const answer = await Promise.race([ping().then(() => 'ok' as const), timedOut]);
      if (answer === 'timeout') {
        return report(`the store did not answer within ${options.timeoutMs} ms`);
      }
      return report(undefined);
    } catch (error) {
      return report('the store answered with an error', error as Error);
    } finally {
      clearTimeout(timer);
    }
  };
}
