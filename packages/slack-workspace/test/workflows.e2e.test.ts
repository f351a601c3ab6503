/**
 * Workflows in the simulated workspace, against a bare app that records what it is sent: a run
 * sends a signed function_executed with a token for that execution alone, and the workspace
 * refuses what Slack refuses when the app completes it (outputs not as declared, an unknown
 * execution, a second completion, another execution's token, the installation's token, an expired
 * token), and accepts the one right completion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readManifest, startWorkspace, type Workspace } from '../src/index.js';
import { callApi, type RawApp, startRawApp } from './raw-app.js';
import { PEOPLE } from './support.js';

const SECRET = 'workflow-signing-secret';
const MANIFEST = `
display_information: { name: Split }
features: { bot_user: { display_name: Split } }
oauth_config: { scopes: { bot: [chat:write, users:read] } }
settings: { event_subscriptions: { bot_events: [function_executed] } }
functions:
  post_note:
    title: Post a note
    description: Posts a note
    input_parameters:
      user: { type: "slack#/types/user_id", title: Person, is_required: true }
      note: { type: string, title: Note, is_required: true }
      channel: { type: "slack#/types/channel_id", title: Channel }
      interactivity: { type: "slack#/types/interactivity", title: Who runs it }
    output_parameters:
      note_id: { type: string, title: Note id, is_required: true }
      count: { type: number, title: Count }
`;

let ws: Workspace;
let app: RawApp;

beforeAll(async () => {
  app = await startRawApp();
  ws = await startWorkspace({ app: readManifest(MANIFEST) });
  for (const person of PEOPLE) ws.addUser(person);
  ws.connectApp({ appUrl: app.url, signingSecret: SECRET });
});
afterAll(async () => {
  await ws?.close();
  await app?.close();
});

interface Executed {
  token: string;
  id: string;
  inputs: Record<string, unknown>;
  envelope: Record<string, unknown>;
}

/** Starts a link workflow as Ann and reads the function_executed the app was sent. */
async function started(form: Record<string, unknown> = { note: 'hello' }): Promise<Executed> {
  const workflow = ws.workflows.create({
    name: 'Notes',
    channel: 'C0001',
    createdBy: 'U0ANN',
    trigger: { kind: 'link' },
    steps: [
      {
        callback_id: 'post_note',
        inputs: { user: { from: 'runner' }, note: { from: 'form' } },
      },
    ],
  });
  const before = app.received.length;
  const run = ws.workflows.start(workflow.id, { user: 'U0ANN', form });
  const deadline = Date.now() + 5_000;
  while (app.received.length === before && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const envelope = app.received.at(-1)!.payload;
  const event = envelope.event as Record<string, unknown>;
  expect(event.workflow_execution_id).toBe(run.id);
  return {
    token: event.bot_access_token as string,
    id: event.function_execution_id as string,
    inputs: event.inputs as Record<string, unknown>,
    envelope,
  };
}

const complete = (token: string, args: Record<string, unknown>) =>
  callApi(ws.apiUrl, token, 'functions.completeSuccess', args);

describe('a workflow run', () => {
  it('sends a signed function_executed with the inputs, who ran it, and a token of its own', async () => {
    const run = await started();
    const event = run.envelope.event as Record<string, unknown>;
    expect(event.type).toBe('function_executed');
    expect((event.function as { callback_id: string }).callback_id).toBe('post_note');
    expect(run.inputs).toMatchObject({
      user: 'U0ANN',
      note: 'hello',
      interactivity: { interactor: { id: 'U0ANN' } },
    });
    expect(run.token).toMatch(/^xwfp-/);
    expect(run.token).not.toBe(ws.team.botToken);
    expect(app.received.at(-1)!.headers['x-slack-signature']).toMatch(/^v0=/);
    // The token acts as the app's bot for the Web API while the execution runs.
    const posted = await callApi(ws.apiUrl, run.token, 'chat.postMessage', {
      channel: 'C0001',
      text: 'a note',
    });
    expect(posted.ok).toBe(true);
    expect(
      await complete(run.token, { function_execution_id: run.id, outputs: { note_id: 'n1' } }),
    ).toEqual(expect.objectContaining({ ok: true }));
    const done = await ws.workflows.waitForRun(String(event.workflow_execution_id));
    expect(done.state).toBe('completed');
    expect(done.steps[0]!.outputs).toEqual({ note_id: 'n1' });
  });

  it('refuses outputs that are not the declared ones: missing, undeclared, or of another type', async () => {
    const run = await started();
    const refused = async (outputs: Record<string, unknown>) =>
      (await complete(run.token, { function_execution_id: run.id, outputs })).error;
    expect(await refused({})).toBe('parameter_validation_failed');
    expect(await refused({ note_id: 'n1', extra: 'x' })).toBe('parameter_validation_failed');
    expect(await refused({ note_id: 7 })).toBe('parameter_validation_failed');
    expect(await refused({ note_id: 'n1', count: 'three' })).toBe('parameter_validation_failed');
    // Still running: the right outputs are taken.
    expect(await refused({ note_id: 'n1', count: 3 })).toBeUndefined();
  });

  it('refuses an unknown execution, a second completion, and a token that is not the execution’s', async () => {
    const first = await started();
    const second = await started();
    const outputs = { note_id: 'n1' };
    expect(
      (await complete(first.token, { function_execution_id: 'Fx0NOSUCH', outputs })).error,
    ).toBe('function_execution_not_found');
    // Another execution's token, and the installation's own bot token.
    expect((await complete(second.token, { function_execution_id: first.id, outputs })).error).toBe(
      'access_denied',
    );
    expect(
      (await complete(ws.team.botToken, { function_execution_id: first.id, outputs })).error,
    ).toBe('access_denied');
    expect(
      (await complete('xwfp-made-up', { function_execution_id: first.id, outputs })).error,
    ).toBe('invalid_auth');
    expect((await complete(first.token, { function_execution_id: first.id, outputs })).ok).toBe(
      true,
    );
    expect((await complete(first.token, { function_execution_id: first.id, outputs })).error).toBe(
      'execution_not_in_running_state',
    );
    const error = await callApi(ws.apiUrl, first.token, 'functions.completeError', {
      function_execution_id: first.id,
      error: 'too late',
    });
    expect(error.error).toBe('execution_not_in_running_state');
    // Once completed, the token no longer works for anything.
    const after = await callApi(ws.apiUrl, first.token, 'chat.postMessage', {
      channel: 'C0001',
      text: 'late',
    });
    expect(after.error).toBe('invalid_auth');
    await callApi(ws.apiUrl, second.token, 'functions.completeError', {
      function_execution_id: second.id,
      error: 'The note could not be posted.',
    });
    const failed = ws.workflows.runs().find((r) => r.steps[0]?.function_execution_id === second.id);
    expect(failed?.state).toBe('failed');
    expect(failed?.steps[0]?.error).toBe('The note could not be posted.');
  });

  it('expires an execution’s token after its time, and fails the step', async () => {
    const run = await started();
    ws.advance(16 * 60_000);
    const late = await complete(run.token, {
      function_execution_id: run.id,
      outputs: { note_id: 'n1' },
    });
    expect(late.error).toBe('token_expired');
    ws.workflows.tick();
    expect(ws.workflows.execution(run.id)?.state).toBe('failed');
  });

  it('runs a scheduled workflow when its time comes, with no one behind it', async () => {
    const at = ws.now() + 60_000;
    const workflow = ws.workflows.create({
      name: 'Weekly note',
      channel: 'C0001',
      createdBy: 'U0BOB',
      trigger: { kind: 'schedule', at, repeat: 'weekly' },
      steps: [
        {
          callback_id: 'post_note',
          inputs: { user: { from: 'value', value: 'U0BOB' }, note: { from: 'value', value: 'hi' } },
        },
      ],
    });
    const before = ws.workflows.runs().length;
    ws.workflows.tick();
    expect(ws.workflows.runs().length).toBe(before);
    ws.advance(61_000);
    ws.workflows.tick();
    const run = ws.workflows.runs().at(-1)!;
    expect(run.workflow_id).toBe(workflow.id);
    expect(run.ranBy).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const event = app.received.at(-1)!.payload.event as Record<string, unknown>;
    expect(event.inputs).toEqual({ user: 'U0BOB', note: 'hi' });
    expect(ws.workflows.list().find((w) => w.id === workflow.id)?.nextRunAt).toBe(
      at + 7 * 24 * 60 * 60_000,
    );
  });

  it('refuses a workflow that leaves a required input empty or names a step the app lacks', () => {
    const base = {
      name: 'x',
      channel: 'C0001',
      createdBy: 'U0ANN',
      trigger: { kind: 'link' },
    } as const;
    expect(() =>
      ws.workflows.create({
        ...base,
        steps: [{ callback_id: 'post_note', inputs: { user: { from: 'runner' } } }],
      }),
    ).toThrow(/needs "Note"/);
    expect(() =>
      ws.workflows.create({ ...base, steps: [{ callback_id: 'nothing', inputs: {} }] }),
    ).toThrow(/no step/);
  });
});
