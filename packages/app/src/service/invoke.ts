/**
 * Runs one declared operation: edition, then the input's rules, then path and parameters, then
 * the credential, then one request through `send` (timeout, retries for reads, error mapping),
 * then the declared reader. Everything that can be refused locally is refused before the
 * credential is looked at and before anything is sent.
 */
import { formEncode, type Pairs, segment } from './encode.js';
import { ServiceEditionException, ServiceInputException } from './errors.js';
import type { Edition } from './operation.js';
import { type CallContext, type Operation, type Param, scalar } from './operation.js';
import { type ApiCall, type RequestBody, send, type TransportConfig } from './request.js';

/** What a client lends an operation for one call. */
export interface Caller {
  edition: Edition;
  baseUrl: string;
  transport: TransportConfig;
  /** The Authorization header maker; throws when `required` and there is no credential. */
  authorization(operation: string, required: boolean): ApiCall['authorization'];
}

const notAvailable = (what: string, edition: Edition) =>
  new ServiceEditionException(
    `${what} is not available in edition ${edition} of the service interface`,
  );

function isUnset(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function field<In>(input: In, key: string): unknown {
  return (input as Record<string, unknown>)[key];
}

function wireName<In>(param: Param<In>, edition: Edition): string {
  if ('value' in param) return param.wire;
  const wire = param.wire ?? param.field;
  return typeof wire === 'function' ? wire(edition) : wire;
}

function fillPath<In>(op: Operation<In, unknown>, input: In): string {
  return op.path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = field(input, key);
    if (typeof value !== 'number' && typeof value !== 'string') {
      throw new ServiceInputException(`${op.name}: ${key} is required`);
    }
    return segment(key, value);
  });
}

function encodeParams<In>(op: Operation<In, unknown>, input: In, ctx: CallContext): Pairs {
  const pairs: Pairs = [];
  for (const param of op.params ?? []) {
    const name = wireName(param, ctx.edition);
    const value = 'value' in param ? param.value(input) : input[param.field];
    if (param.since !== undefined && ctx.edition < param.since && value !== undefined) {
      const kind = op.method === 'GET' ? 'filter' : 'parameter';
      throw notAvailable(`the ${name} ${kind}`, ctx.edition);
    }
    (param.encode ?? scalar)(pairs, name, value, ctx);
  }
  return pairs;
}

export async function invoke<In, Out>(
  caller: Caller,
  op: Operation<In, Out>,
  input: In,
): Promise<Out> {
  const { edition } = caller;
  if (op.since !== undefined && edition < op.since) throw notAvailable(op.name, edition);
  const ctx: CallContext = { operation: op.name, what: op.path.split('/')[0] ?? op.path, edition };
  for (const param of op.params ?? []) {
    if ('field' in param && param.required && isUnset(input[param.field])) {
      throw new ServiceInputException(`${op.name}: ${param.field} is required`);
    }
  }
  op.check?.(input, ctx);
  const path = fillPath(op, input);
  const pairs = encodeParams(op, input, ctx);
  const file = op.file === undefined ? undefined : field(input, op.file);
  if (op.requireChange && pairs.length === 0 && file === undefined) {
    throw new ServiceInputException(`${op.name}: nothing to change`);
  }
  const authorization = caller.authorization(op.name, op.needsUser ?? true);
  const url = `${caller.baseUrl}/${path}`;
  const call: ApiCall =
    op.method === 'GET'
      ? {
          what: ctx.what,
          method: 'GET',
          url: pairs.length > 0 ? `${url}?${formEncode(pairs)}` : url,
        }
      : { what: ctx.what, method: 'POST', url, body: postBody(pairs, op.file, file) };
  // Set on the call rather than spread into a copy: a new field after a spread, and each later
  // read of the copy, goes through V8's runtime on Node 20.
  if (authorization) call.authorization = authorization;
  const body = await send(caller.transport, call);
  return op.read(body, ctx);
}

function postBody(pairs: Pairs, part: string | undefined, path: unknown): RequestBody {
  if (part === undefined || path === undefined) return { kind: 'form', pairs };
  return { kind: 'multipart', pairs, file: { field: part, path: String(path) } };
}
