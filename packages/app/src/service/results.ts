/**
 * Reading the service's answers. A read unwraps the resource under its envelope key; a mutation
 * follows the service's "200 with errors" convention, where a refusal arrives as a success status
 * with `errors` filled (or `success: false`) and must never be mistaken for success.
 */
import {
  firstMessage,
  hasErrors,
  normaliseErrors,
  type ServiceErrors,
  ServiceException,
} from './errors.js';
import type { CallContext, Reader } from './operation.js';

/**
 * What a mutation without an object resolves to (a delete, a removal): whether the service
 * applied it, and its validation errors (`{}` on success, the reason when it refused).
 */
export type SuccessResult = { success: boolean; errors: ServiceErrors };

export function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

export function isObjectWithId(value: unknown): boolean {
  return typeof asRecord(value).id === 'number';
}

/** The resource under `key` of a read's envelope; a missing key is a failure, not undefined. */
export function resource<T>(key: string): Reader<T> {
  return (body, ctx) => {
    const record = asRecord(body);
    if (!(key in record) || record[key] === null) {
      const errors = normaliseErrors(record);
      throw new ServiceException(
        `${ctx.what} failed: the answer carried no ${key}${hasErrors(errors) ? ` (${firstMessage(errors)})` : ''}`,
        { errors },
      );
    }
    return record[key] as T;
  };
}

/**
 * The one place that decides whether a mutation was applied. Failed results get at least one
 * message, so `errors` is never empty when the object is absent. Edition 1 has no error object:
 * there a refusal throws instead.
 */
export function outcome(
  body: unknown,
  ctx: CallContext,
  applied: boolean,
  extraErrors: ServiceErrors = {},
): { ok: boolean; errors: ServiceErrors } {
  const record = asRecord(body);
  const errors: ServiceErrors = { ...normaliseErrors(record) };
  for (const [key, messages] of Object.entries(extraErrors)) {
    errors[key] = [...(errors[key] ?? []), ...messages];
  }
  const ok = applied && !hasErrors(errors) && record.success !== false;
  if (!ok && !hasErrors(errors)) errors.base = [`the service did not apply ${ctx.what}`];
  if (!ok && ctx.edition === 1) {
    throw new ServiceException(`${ctx.what} was refused: ${firstMessage(errors)}`, { errors });
  }
  return { ok, errors };
}

/** `{ <key>: object, errors }` when the object under `key` came back with an id, else `{ errors }`. */
export function applied<K extends string, T>(
  key: K,
): Reader<{ [P in K]?: T } & { errors: ServiceErrors }> {
  return (body, ctx) => {
    const object = asRecord(body)[key];
    const { ok, errors } = outcome(body, ctx, isObjectWithId(object));
    return (ok ? { [key]: object, errors } : { errors }) as { [P in K]?: T } & {
      errors: ServiceErrors;
    };
  };
}

/** Operations that answer only `success`. */
export const succeeded: Reader<SuccessResult> = (body, ctx) => {
  const { ok, errors } = outcome(body, ctx, asRecord(body).success === true);
  return { success: ok, errors };
};
