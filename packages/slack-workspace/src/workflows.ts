/**
 * Workflows as Workflow Builder makes them from an app's steps (the manifest's `functions`): a
 * trigger (a link in a channel a person starts, or a schedule), and steps whose inputs are fixed
 * values, answers to the workflow's form, or the person who started it.
 *
 * Each step runs as Slack runs a custom function: a signed `function_executed` event carrying a
 * bot token of its own (`bot_access_token`), valid for that execution only and only until it is
 * completed, then waiting for the app's `functions.completeSuccess` or `functions.completeError`
 * (api-functions.ts checks those as Slack does). A step that is not completed in time fails.
 */
import { randomBytes } from 'node:crypto';
import type { Deliverer } from './delivery.js';
import { envelopeFor } from './events.js';
import { eventCallback } from './payloads.js';
import type { SlackRequest } from './signing.js';
import { randomId, type WorkspaceState } from './state.js';
import type { AppFacts, AppFunction, Team } from './types.js';

/** Where a step's input comes from. */
export type InputSource =
  | { from: 'value'; value: unknown }
  /** Asked in the workflow's form when a person starts it. */
  | { from: 'form' }
  /** The person who started the workflow (a user id input). */
  | { from: 'runner' };

export type WorkflowTrigger =
  | { kind: 'link' }
  /** Runs at `at` (workspace clock, ms), then every day or week when it repeats. */
  | { kind: 'schedule'; at: number; repeat?: 'daily' | 'weekly' | undefined };

export interface WorkflowStep {
  callback_id: string;
  inputs: Record<string, InputSource>;
}

export interface Workflow {
  id: string;
  name: string;
  team_id: string;
  /** The channel its link is in, or where a scheduled one belongs. */
  channel: string;
  createdBy: string;
  trigger: WorkflowTrigger;
  steps: WorkflowStep[];
  /** A scheduled workflow's next run (workspace clock, ms). */
  nextRunAt?: number | undefined;
}

export type ExecutionState = 'running' | 'completed' | 'failed';

export interface StepExecution {
  function_execution_id: string;
  callback_id: string;
  title: string;
  state: ExecutionState;
  outputs?: Record<string, unknown> | undefined;
  error?: string | undefined;
  /** The execution's own bot token; never shown on the page. */
  token: string;
  /** Until when it may be completed (workspace clock, ms). */
  deadline: number;
  /** The function_executed event as sent, for a retry of it. */
  request: SlackRequest;
  team: Team;
}

export interface WorkflowRun {
  id: string;
  workflow_id: string;
  name: string;
  ranBy: string | undefined;
  startedAt: number;
  state: ExecutionState;
  steps: StepExecution[];
}

export interface WorkflowInput {
  name: string;
  team_id?: string | undefined;
  channel: string;
  createdBy: string;
  trigger: WorkflowTrigger;
  steps: WorkflowStep[];
}

/** How long an execution may run before Slack gives up on it. */
export const STEP_TIMEOUT_MS = 15 * 60_000;
const DAY_MS = 24 * 60 * 60_000;
/** Workflows and runs kept in memory; the oldest run goes first. */
const MAX_RUNS = 200;
const MAX_WORKFLOWS = 100;

export class WorkflowError extends Error {}

export class Workflows {
  readonly workflows = new Map<string, Workflow>();
  readonly runs: WorkflowRun[] = [];
  /** Execution id -> its run and step. */
  private readonly executions = new Map<string, { run: WorkflowRun; step: StepExecution }>();
  /** Execution token -> execution id. */
  private readonly tokens = new Map<string, string>();
  private readonly waiting = new Map<string, () => void>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly state: WorkspaceState,
    private readonly deliverer: Deliverer,
    readonly app: () => AppFacts,
  ) {
    // Schedules and deadlines follow the workspace's clock, which tests move by hand.
    this.timer = setInterval(() => this.tick(), 1_000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  functionOf(callback_id: string): AppFunction | undefined {
    return (this.app().functions ?? []).find((f) => f.callback_id === callback_id);
  }

  create(input: WorkflowInput): Workflow {
    const team = this.state.teams.get(input.team_id ?? this.state.defaultTeamId ?? '');
    if (!team) throw new WorkflowError('There is no such workspace.');
    if (!input.name.trim()) throw new WorkflowError('A workflow needs a name.');
    if (!this.state.channels.has(input.channel))
      throw new WorkflowError('There is no such channel.');
    if (input.steps.length === 0) throw new WorkflowError('A workflow needs a step.');
    if (this.workflows.size >= MAX_WORKFLOWS) throw new WorkflowError('Too many workflows.');
    for (const step of input.steps) this.checkStep(step, input.trigger);
    const workflow: Workflow = {
      id: randomId('Wf', 10),
      name: input.name.trim().slice(0, 80),
      team_id: team.id,
      channel: input.channel,
      createdBy: input.createdBy,
      trigger: input.trigger,
      steps: input.steps,
      ...(input.trigger.kind === 'schedule' ? { nextRunAt: input.trigger.at } : {}),
    };
    this.workflows.set(workflow.id, workflow);
    this.state.changed();
    return workflow;
  }

  /** Workflow Builder offers each input of the step, and requires the required ones. */
  private checkStep(step: WorkflowStep, trigger: WorkflowTrigger): void {
    const fn = this.functionOf(step.callback_id);
    if (!fn) throw new WorkflowError(`The app has no step "${step.callback_id}".`);
    const declared = new Map(fn.input_parameters.map((p) => [p.name, p]));
    for (const [name, source] of Object.entries(step.inputs)) {
      const param = declared.get(name);
      if (!param) throw new WorkflowError(`"${fn.title}" has no input "${name}".`);
      if (param.type === 'slack#/types/interactivity')
        throw new WorkflowError('Slack fills the interactivity input itself.');
      if (source.from === 'runner' && param.type !== 'slack#/types/user_id')
        throw new WorkflowError(`"${param.title}" is not a person.`);
      if (source.from !== 'value' && trigger.kind === 'schedule')
        throw new WorkflowError('A scheduled workflow has nobody to ask: use fixed values.');
    }
    for (const param of fn.input_parameters) {
      const given = step.inputs[param.name];
      const empty = given === undefined || (given.from === 'value' && blank(given.value));
      if (param.is_required && empty)
        throw new WorkflowError(`"${fn.title}" needs "${param.title}".`);
    }
  }

  /**
   * Starts a workflow: by a person (a link), with the form's answers, or by its schedule. Each
   * step is run in turn; the run is returned at once and changes as its steps complete.
   */
  start(id: string, by?: { user: string; form?: Record<string, unknown> }): WorkflowRun {
    const workflow = this.workflows.get(id);
    if (!workflow) throw new WorkflowError('There is no such workflow.');
    if (workflow.trigger.kind === 'link' && !by) throw new WorkflowError('Someone must start it.');
    const run: WorkflowRun = {
      id: randomId('Wx', 10),
      workflow_id: workflow.id,
      name: workflow.name,
      ranBy: by?.user,
      startedAt: this.state.now(),
      state: 'running',
      steps: [],
    };
    const inputs = workflow.steps.map((step) => this.inputsFor(step, by));
    this.runs.push(run);
    if (this.runs.length > MAX_RUNS) this.runs.shift();
    this.state.changed();
    void this.runSteps(workflow, run, inputs);
    return run;
  }

  private inputsFor(
    step: WorkflowStep,
    by: { user: string; form?: Record<string, unknown> } | undefined,
  ): Record<string, unknown> {
    const fn = this.functionOf(step.callback_id) as AppFunction;
    const inputs: Record<string, unknown> = {};
    for (const param of fn.input_parameters) {
      const source = step.inputs[param.name];
      if (param.type === 'slack#/types/interactivity') {
        // Slack's own record of who clicked: a builder has no way to set it.
        if (by) {
          inputs[param.name] = {
            interactor: { id: by.user, secret: randomBytes(16).toString('hex') },
            interactivity_pointer: `${randomId('', 8)}.${randomBytes(8).toString('hex')}`,
          };
        }
        continue;
      }
      if (!source) continue;
      let value: unknown;
      if (source.from === 'value') value = source.value;
      else if (source.from === 'runner') value = by?.user;
      else value = by?.form && Object.hasOwn(by.form, param.name) ? by.form[param.name] : undefined;
      if (source.from === 'form' && param.is_required && blank(value))
        throw new WorkflowError(`The form needs "${param.title}".`);
      if (!blank(value)) inputs[param.name] = value;
    }
    return inputs;
  }

  private async runSteps(
    workflow: Workflow,
    run: WorkflowRun,
    inputs: Record<string, unknown>[],
  ): Promise<void> {
    const team = this.state.teams.get(workflow.team_id) as Team;
    for (const [i, step] of workflow.steps.entries()) {
      const execution = await this.execute(run, step, inputs[i] ?? {}, team);
      if (execution.state !== 'completed') {
        run.state = 'failed';
        this.state.changed();
        return;
      }
    }
    run.state = 'completed';
    this.state.changed();
  }

  private async execute(
    run: WorkflowRun,
    step: WorkflowStep,
    inputs: Record<string, unknown>,
    team: Team,
  ): Promise<StepExecution> {
    const fn = this.functionOf(step.callback_id) as AppFunction;
    const id = randomId('Fx', 10);
    const token = `xwfp-${team.id}-${randomBytes(12).toString('hex')}`;
    // The installation serving the team: its own, or its org's.
    const org = team.enterprise_id ? this.state.orgInstalls.get(team.enterprise_id) : undefined;
    const holder = org ?? team;
    const event = {
      type: 'function_executed',
      function: {
        id: `Fn${randomId('', 8)}`,
        callback_id: fn.callback_id,
        title: fn.title,
        description: fn.description,
        type: 'app',
        input_parameters: fn.input_parameters,
        output_parameters: fn.output_parameters,
        app_id: holder.appId,
        date_created: Math.floor(this.state.now() / 1000),
        date_updated: Math.floor(this.state.now() / 1000),
        date_deleted: 0,
      },
      inputs,
      function_execution_id: id,
      workflow_execution_id: run.id,
      event_ts: this.state.nextTs(),
      bot_access_token: token,
    };
    const execution: StepExecution = {
      function_execution_id: id,
      callback_id: fn.callback_id,
      title: fn.title,
      state: 'running',
      token,
      deadline: this.state.now() + STEP_TIMEOUT_MS,
      request: eventCallback(event, envelopeFor(this.state, team)),
      team: holder,
    };
    run.steps.push(execution);
    this.executions.set(id, { run, step: execution });
    this.tokens.set(token, id);
    // The token acts as the installation's bot, with its scopes, for this execution alone.
    this.state.tokens.set(token, { ...holder, botToken: token });
    this.state.changed();
    const done = new Promise<void>((resolve) => this.waiting.set(id, resolve));
    const outcome = await this.deliverer.deliver('event', execution.request);
    if (outcome.failure === 'dispatch_failed' && outcome.status === 0 && !outcome.timedOut) {
      this.finish(execution, { state: 'failed', error: 'The app could not be reached.' });
    }
    await done;
    return execution;
  }

  /** The execution a token was given for. */
  executionOfToken(token: string): StepExecution | undefined {
    const id = this.tokens.get(token);
    return id ? this.executions.get(id)?.step : undefined;
  }

  execution(id: string): StepExecution | undefined {
    return this.executions.get(id)?.step;
  }

  /** Whether `token` is an execution token past its execution's deadline. */
  expired(token: string): boolean {
    const execution = this.executionOfToken(token);
    return execution !== undefined && this.state.now() > execution.deadline;
  }

  /** Ends an execution: its token stops working, and the run goes on (or stops). */
  finish(
    execution: StepExecution,
    result:
      | { state: 'completed'; outputs: Record<string, unknown> }
      | { state: 'failed'; error: string },
  ): void {
    if (execution.state !== 'running') return;
    execution.state = result.state;
    if (result.state === 'completed') execution.outputs = result.outputs;
    else execution.error = result.error;
    // The token stops working for the Web API; it is still recognised as this execution's, so
    // that a second completion is told the execution is over rather than that the token is unknown.
    this.state.tokens.delete(execution.token);
    this.state.changed();
    this.waiting.get(execution.function_execution_id)?.();
    this.waiting.delete(execution.function_execution_id);
  }

  /** Sends an execution's event again, as Slack's retry `num` would. */
  redeliver(id: string, num = 1): ReturnType<Deliverer['retry']> {
    const execution = this.execution(id);
    if (!execution) throw new WorkflowError('There is no such execution.');
    return this.deliverer.retry(execution.request, num, 'http_timeout');
  }

  /** Starts what is due on the workspace's clock, and fails executions past their deadline. */
  tick(): void {
    const now = this.state.now();
    for (const workflow of this.workflows.values()) {
      if (workflow.trigger.kind !== 'schedule' || workflow.nextRunAt === undefined) continue;
      if (workflow.nextRunAt > now) continue;
      const { repeat } = workflow.trigger;
      workflow.nextRunAt = repeat
        ? workflow.nextRunAt + (repeat === 'daily' ? DAY_MS : 7 * DAY_MS)
        : undefined;
      this.start(workflow.id);
    }
    for (const { step } of this.executions.values()) {
      if (step.state === 'running' && now > step.deadline) {
        this.finish(step, { state: 'failed', error: 'The step did not finish in time.' });
      }
    }
  }
}

function blank(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    (Array.isArray(value) && value.length === 0)
  );
}
