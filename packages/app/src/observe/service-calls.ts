/**
 * Each call to the expense service, counted and logged: one line per attempt, failures at info so
 * that they show at the default level. The service client reports its attempts through a callback,
 * so this module knows the report only by its shape.
 */
import { type Logger, LogLevel } from '@slack/bolt';
import { logEvent } from './logger.js';
import type { Metrics, ServiceOutcome } from './metrics.js';

export interface ServiceCallReport {
  operation: string;
  /** 0 for the first attempt. */
  attempt: number;
  status: number | undefined;
  outcome: ServiceOutcome;
  durationMs: number;
  retrying: boolean;
}

export function observeServiceCalls(logger: Logger, metrics: Metrics) {
  return (report: ServiceCallReport) => {
    metrics.serviceRequest(report.operation, report.outcome);
    if (report.retrying) metrics.serviceRetry(report.operation);
    const level = report.outcome === 'ok' ? 'debug' : 'info';
    // Every booking makes these calls; the line is not even built unless it will be written.
    if (level === 'debug' && logger.getLevel() !== LogLevel.DEBUG) return;
    logEvent(
      logger,
      level,
      {
        operation: report.operation,
        status: report.status ?? null,
        outcome: report.outcome,
        durationMs: report.durationMs,
        ...(report.attempt > 0 ? { attempt: report.attempt } : {}),
        ...(report.retrying ? { retrying: true } : {}),
      },
      `service ${report.operation} ${report.status ?? report.outcome} in ${report.durationMs} ms`,
    );
  };
}
