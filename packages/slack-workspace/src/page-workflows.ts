/**
 * The Workflows panel's side of the page: what it shows one person (the app's steps, the
 * workflows of the workspace, recent runs), and making or starting a workflow as that person.
 * An execution's token never reaches the page.
 */
import { isObject } from './http-util.js';
import { PageError } from './interactions.js';
import type { AppFunction } from './types.js';
import {
  type InputSource,
  WorkflowError,
  type WorkflowStep,
  type Workflows,
  type WorkflowTrigger,
} from './workflows.js';

export interface PageWorkflows {
  steps: AppFunction[];
  list: {
    id: string;
    name: string;
    channel: string;
    trigger: WorkflowTrigger;
    nextRunAt: number | null;
    /** What its form asks, when a person starts it. */
    form: {
      step: string;
      name: string;
      title: string;
      type: string;
      items: string | null;
      required: boolean;
    }[];
  }[];
  runs: {
    id: string;
    name: string;
    ranBy: string | null;
    startedAt: number;
    state: 'running' | 'completed' | 'failed';
    steps: {
      id: string;
      title: string;
      state: 'running' | 'completed' | 'failed';
      outputs: Record<string, unknown> | null;
      error: string | null;
    }[];
  }[];
}

export function pageWorkflows(workflows: Workflows | undefined): PageWorkflows {
  if (!workflows) return { steps: [], list: [], runs: [] };
  const list = [...workflows.workflows.values()].map((w) => ({
    id: w.id,
    name: w.name,
    channel: w.channel,
    trigger: w.trigger,
    nextRunAt: w.nextRunAt ?? null,
    form: w.steps.flatMap((step) => {
      const fn = workflows.functionOf(step.callback_id);
      return (fn?.input_parameters ?? [])
        .filter((p) => step.inputs[p.name]?.from === 'form')
        .map((p) => ({
          step: step.callback_id,
          name: p.name,
          title: p.title,
          type: p.type,
          items: p.items?.type ?? null,
          required: p.is_required,
        }));
    }),
  }));
  const runs = [...workflows.runs]
    .reverse()
    .slice(0, 20)
    .map((run) => ({
      id: run.id,
      name: run.name,
      ranBy: run.ranBy ?? null,
      startedAt: run.startedAt,
      state: run.state,
      steps: run.steps.map((s) => ({
        id: s.function_execution_id,
        title: s.title,
        state: s.state,
        outputs: s.outputs ?? null,
        error: s.error ?? null,
      })),
    }));
  return { steps: workflows.app().functions ?? [], list, runs };
}

function source(value: unknown): InputSource {
  if (!isObject(value)) throw new PageError('Each input needs a source.');
  if (value.from === 'form') return { from: 'form' };
  if (value.from === 'runner') return { from: 'runner' };
  if (value.from === 'value') return { from: 'value', value: value.value };
  throw new PageError('An input comes from a value, the form, or the person who starts it.');
}

function trigger(value: unknown): WorkflowTrigger {
  if (isObject(value) && value.kind === 'link') return { kind: 'link' };
  if (isObject(value) && value.kind === 'schedule' && typeof value.at === 'number') {
    const repeat = value.repeat === 'daily' || value.repeat === 'weekly' ? value.repeat : undefined;
    return { kind: 'schedule', at: value.at, ...(repeat ? { repeat } : {}) };
  }
  throw new PageError('A trigger is a link in a channel, or a schedule at a time.');
}

function steps(value: unknown): WorkflowStep[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > 5)
    throw new PageError('A workflow has one to five steps.');
  return value.map((step) => {
    if (!isObject(step) || typeof step.callback_id !== 'string' || !isObject(step.inputs))
      throw new PageError('Each step names the app step and its inputs.');
    const inputs: Record<string, InputSource> = Object.create(null);
    for (const [name, given] of Object.entries(step.inputs)) inputs[name] = source(given);
    return { callback_id: step.callback_id, inputs };
  });
}

/** The panel's requests; a refusal reads as the page's error. */
export function workflowRoutes(
  workflows: Workflows,
  acting: (as: unknown) => string,
): [string, (body: Record<string, unknown>) => Promise<unknown>][] {
  const refused = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      if (error instanceof WorkflowError) throw new PageError(error.message);
      throw error;
    }
  };
  return [
    [
      'workflow-create',
      async (body) => {
        const createdBy = acting(body.as);
        const created = refused(() =>
          workflows.create({
            name: typeof body.name === 'string' ? body.name : '',
            channel: typeof body.channel === 'string' ? body.channel : '',
            createdBy,
            trigger: trigger(body.trigger),
            steps: steps(body.steps),
          }),
        );
        return { id: created.id };
      },
    ],
    [
      'workflow-start',
      async (body) => {
        const user = acting(body.as);
        const form = isObject(body.form) ? body.form : {};
        const id = typeof body.id === 'string' ? body.id : '';
        const run = refused(() => workflows.start(id, { user, form }));
        return { run: run.id };
      },
    ],
  ];
}
