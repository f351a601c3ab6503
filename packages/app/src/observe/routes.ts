/**
 * The operator's HTTP routes beside /healthz (liveness, in slack/linking/routes.ts): /readyz says
 * whether this replica can take work now (its store answers), /metrics serves the Prometheus
 * exposition.
 */
import type { CustomRoute } from '@slack/bolt';
import type { Metrics } from './metrics.js';

/** Resolves with undefined when ready, otherwise with a short reason for the operator. */
export type Readiness = () => Promise<string | undefined>;

interface ObserveRouteOptions {
  metrics: Metrics;
  ready: Readiness;
}

export function observeRoutes(options: ObserveRouteOptions): CustomRoute[] {
  return [
    {
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
    },
    {
      path: '/metrics',
      method: ['GET'],
      handler: (_req, res) => {
        void options.metrics.render().then(
          ({ contentType, body }) => {
            res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
            res.end(body);
          },
          () => {
            res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
            res.end('metrics could not be collected\n');
          },
        );
      },
    },
  ];
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
