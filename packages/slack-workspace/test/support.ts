/**
 * A simulated workspace with a real Bolt app connected to it on loopback, both on port 0:
 * the app calls the workspace's Web API, the workspace sends it signed requests.
 */
import type { AddressInfo } from 'node:net';
import { App, LogLevel, type types } from '@slack/bolt';
import { startWorkspace, type Workspace, type WorkspaceOptions } from '../src/index.js';

export const SIGNING_SECRET = 'workspace-test-signing-secret';

export const PEOPLE = [
  { id: 'U0ANN', name: 'ann', real_name: 'Ann Example', email: 'ann@example.com' },
  { id: 'U0BOB', name: 'bob', real_name: 'Bob Example', email: 'bob@example.com' },
];

export interface Rig {
  ws: Workspace;
  app: App;
  close(): Promise<void>;
}

export async function startRig(
  register: (app: App) => void,
  options: WorkspaceOptions = {},
): Promise<Rig> {
  const ws = await startWorkspace(options);
  for (const person of PEOPLE) ws.addUser(person);
  const app = new App({
    token: ws.team.botToken,
    signingSecret: SIGNING_SECRET,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl: ws.apiUrl, retryConfig: { retries: 0 } },
    unhandledRequestTimeoutMillis: 3_500,
  } as ConstructorParameters<typeof App>[0]);
  register(app);
  const server = (await app.start({ port: 0, host: '127.0.0.1' })) as { address(): AddressInfo };
  ws.connectApp({
    appUrl: `http://127.0.0.1:${server.address().port}/slack/events`,
    signingSecret: SIGNING_SECRET,
  });
  return {
    ws,
    app,
    async close() {
      await app.stop();
      await ws.close();
    },
  };
}

export const modal = (
  callback_id: string,
  blocks: unknown[] = [],
  extra: Record<string, unknown> = {},
): types.ModalView => ({
  type: 'modal',
  callback_id,
  title: { type: 'plain_text', text: 'Split' },
  submit: { type: 'plain_text', text: 'Save' },
  blocks: blocks as types.KnownBlock[],
  ...extra,
});

export const input = (block_id: string) => ({
  type: 'input',
  block_id,
  label: { type: 'plain_text', text: block_id },
  element: { type: 'plain_text_input', action_id: 'value' },
});
