/**
 * functions.completeSuccess and functions.completeError, as Slack checks them: the token must be
 * the execution's own (bot_access_token) and still valid, the execution known and still running,
 * and a success's outputs exactly what the step declares (every required one, nothing undeclared,
 * each of its type). Checked here rather than through the bot-token path: an execution's token is
 * bound to its execution, which no other method cares about.
 */
import type { OpenMethod } from './api-openid.js';
import { isObject, SlackError } from './http-util.js';
import type { WorkspaceState } from './state.js';
import type { FunctionParam } from './types.js';
import type { StepExecution, Workflows } from './workflows.js';

const USER_ID = /^[UW][A-Z0-9]+$/;
const CHANNEL_ID = /^[CGD][A-Z0-9]+$/;
const TS = /^\d+\.\d+$/;

/** Why an output is not what its parameter declares; undefined when it is. */
function outputProblem(param: FunctionParam, value: unknown): string | undefined {
  const is = (ok: boolean) => (ok ? undefined : `${param.name} is not a ${param.type}`);
  switch (param.type) {
    case 'string':
      return is(typeof value === 'string');
    case 'number':
      return is(typeof value === 'number' && Number.isFinite(value));
    case 'integer':
      return is(Number.isInteger(value));
    case 'boolean':
      return is(typeof value === 'boolean');
    case 'slack#/types/user_id':
      return is(typeof value === 'string' && USER_ID.test(value));
    case 'slack#/types/channel_id':
      return is(typeof value === 'string' && CHANNEL_ID.test(value));
    case 'slack#/types/message_ts':
      return is(typeof value === 'string' && TS.test(value));
    case 'array':
      return is(Array.isArray(value));
    default:
      return undefined;
  }
}

function outputsProblems(declared: FunctionParam[], outputs: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const names = new Set(declared.map((p) => p.name));
  for (const name of Object.keys(outputs)) {
    if (!names.has(name)) problems.push(`${name} is not an output of this step`);
  }
  for (const param of declared) {
    if (!Object.hasOwn(outputs, param.name)) {
      if (param.is_required) problems.push(`${param.name} is required`);
      continue;
    }
    const problem = outputProblem(param, outputs[param.name]);
    if (problem) problems.push(problem);
  }
  return problems;
}

function tokenOf(args: Record<string, unknown>, authorization: string | undefined): string {
  const bearer = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1];
  const token = bearer ?? (typeof args.token === 'string' ? args.token : undefined);
  if (!token) throw new SlackError('not_authed');
  return token;
}

/** Outputs as sent: a JSON object, or its text in a form-encoded call. */
function outputsOf(value: unknown): Record<string, unknown> {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new SlackError('invalid_arguments');
    }
  }
  if (!isObject(parsed)) throw new SlackError('invalid_arguments');
  return parsed;
}

export function functionMethods(
  state: WorkspaceState,
  workflows: Workflows,
): Map<string, OpenMethod> {
  /** The running execution the call is about, when its token is that execution's own. */
  function running(
    args: Record<string, unknown>,
    authorization: string | undefined,
  ): StepExecution {
    const token = tokenOf(args, authorization);
    const own = workflows.executionOfToken(token);
    if (!own && !state.tokens.has(token)) throw new SlackError('invalid_auth');
    if (own && workflows.expired(token)) throw new SlackError('token_expired');
    const id = args.function_execution_id;
    if (typeof id !== 'string' || id === '') throw new SlackError('invalid_arguments');
    const execution = workflows.execution(id);
    if (!execution) throw new SlackError('function_execution_not_found');
    if (execution.state !== 'running') throw new SlackError('execution_not_in_running_state');
    // Another execution's token, or the installation's bot token: not this execution's actor.
    if (own !== execution) throw new SlackError('access_denied');
    return execution;
  }

  return new Map<string, OpenMethod>([
    [
      'functions.completeSuccess',
      ({ args, authorization }) => {
        const execution = running(args, authorization);
        const outputs = outputsOf(args.outputs);
        const fn = workflows.functionOf(execution.callback_id);
        const problems = outputsProblems(fn?.output_parameters ?? [], outputs);
        if (problems.length > 0) {
          throw new SlackError('parameter_validation_failed', { errors: problems });
        }
        workflows.finish(execution, { state: 'completed', outputs });
        return {};
      },
    ],
    [
      'functions.completeError',
      ({ args, authorization }) => {
        const execution = running(args, authorization);
        const error = args.error;
        if (typeof error !== 'string' || error.trim() === '')
          throw new SlackError('invalid_arguments');
        workflows.finish(execution, { state: 'failed', error: error.slice(0, 2_000) });
        return {};
      },
    ],
  ]);
}
