import { App } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { createListenerTable } from '../../../src/slack/runtime/listener-table.js';
import { quietLogger } from '../../support/harness.js';

/** A real Bolt App fed payloads directly: no receiver, no network (the bot ids skip auth.test). */
function boltApp(): App {
  return new App({
    token: 'xoxb-test',
    botId: 'B0BOT',
    botUserId: 'U0BOT',
    signingSecret: 'secret',
    logger: quietLogger(),
  });
}

function deliver(app: App, body: Record<string, unknown>): Promise<{ acked: boolean }> {
  const seen = { acked: false };
  return app
    .processEvent({
      body,
      ack: async () => {
        seen.acked = true;
      },
    })
    .then(() => seen);
}

const team = { id: 'T0001', domain: 'team' };
const user = { id: 'U0ANN', team_id: 'T0001' };

function blockAction(actionId: string) {
  return {
    type: 'block_actions',
    team,
    user,
    api_app_id: 'A1',
    trigger_id: '1.2.3',
    actions: [{ type: 'button', action_id: actionId, block_id: 'b', action_ts: '1' }],
  };
}

describe('listener table', () => {
  it('hands each action, view and menu search to the handler registered for its id', async () => {
    const app = boltApp();
    const table = createListenerTable();
    const calls: string[] = [];
    for (const id of ['expense.undo', 'expense_edit']) {
      table.action(id, async ({ ack }) => {
        calls.push(`action ${id}`);
        await ack();
      });
    }
    table.view('form', async ({ ack, view }) => {
      calls.push(`view ${view.callback_id}`);
      await ack();
    });
    table.options('currency', async ({ ack, payload }) => {
      calls.push(`options ${payload.value}`);
      await ack({ options: [] });
    });
    table.install(app);

    expect(await deliver(app, blockAction('expense_edit'))).toEqual({ acked: true });
    expect(await deliver(app, blockAction('expense.undo'))).toEqual({ acked: true });
    await deliver(app, {
      type: 'view_submission',
      team,
      user,
      api_app_id: 'A1',
      view: { id: 'V1', callback_id: 'form', state: { values: {} }, private_metadata: '' },
    });
    await deliver(app, {
      type: 'block_suggestion',
      team,
      user,
      api_app_id: 'A1',
      action_id: 'currency',
      block_id: 'b',
      value: 'eu',
    });
    expect(calls).toEqual([
      'action expense_edit',
      'action expense.undo',
      'view form',
      'options eu',
    ]);
  });

  it('leaves an id nobody registered unhandled, including one a dot in a registered id would match', async () => {
    const app = boltApp();
    const table = createListenerTable();
    let called = 0;
    table.action('expense.undo', async ({ ack }) => {
      called += 1;
      await ack();
    });
    table.install(app);
    for (const id of ['expenseXundo', 'expense.undo.more', 'other']) {
      expect(await deliver(app, blockAction(id))).toEqual({ acked: false });
    }
    expect(called).toBe(0);
  });

  it('hands each event to every handler of its type, with no Bolt listener, and none other', async () => {
    const app = boltApp();
    const table = createListenerTable();
    const calls: string[] = [];
    table.event('app_home_opened', async ({ event }) => {
      calls.push(`home ${event.tab}`);
    });
    table.event('app_home_opened', async ({ event }) => {
      calls.push(`messages ${event.tab}`);
      throw new Error('the second failed');
    });
    table.event('app_mention', async ({ event }) => {
      calls.push(`mention ${event.text}`);
    });
    table.install(app);
    const listeners = (app as unknown as { listeners: unknown[] }).listeners;
    expect(listeners).toHaveLength(0);
    const eventBody = (event: Record<string, unknown>) => ({
      type: 'event_callback',
      team_id: 'T0001',
      api_app_id: 'A1',
      event_id: `Ev${calls.length}`,
      event,
    });
    await expect(
      app.processEvent({
        body: eventBody({ type: 'app_home_opened', user: 'U0ANN', channel: 'D1', tab: 'home' }),
        ack: async () => undefined,
      }),
    ).rejects.toThrow('the second failed');
    await app.processEvent({
      body: eventBody({ type: 'app_mention', user: 'U0ANN', channel: 'C1', text: 'hi', ts: '1.2' }),
      ack: async () => undefined,
    });
    await app.processEvent({
      body: eventBody({ type: 'app_uninstalled' }),
      ack: async () => undefined,
    });
    expect(calls).toEqual(['home home', 'messages home', 'mention hi']);
  });

  it('hands the command and the shortcut to their handlers by name, and nothing else to them', async () => {
    const app = boltApp();
    const table = createListenerTable();
    const calls: string[] = [];
    table.command('/split', async ({ ack, command }) => {
      calls.push(`command ${command.text}`);
      await ack();
    });
    table.shortcut('split_message', async ({ ack, shortcut }) => {
      calls.push(`shortcut ${shortcut.callback_id}`);
      await ack();
    });
    table.view('form', async ({ ack }) => {
      calls.push('view');
      await ack();
    });
    table.install(app);
    const command = (name: string) => ({
      command: name,
      text: '12 lunch',
      team_id: 'T0001',
      user_id: 'U0ANN',
      channel_id: 'C1',
      api_app_id: 'A1',
      response_url: 'https://hooks.slack.test/r',
      trigger_id: '1.2.3',
    });
    expect(await deliver(app, command('/split'))).toEqual({ acked: true });
    expect(await deliver(app, command('/splitx'))).toEqual({ acked: false });
    const shortcut = (callbackId: string) => ({
      type: 'message_action',
      callback_id: callbackId,
      team,
      user,
      channel: { id: 'C1' },
      message: { ts: '1.2', text: 'lunch 12' },
      api_app_id: 'A1',
      trigger_id: '1.2.3',
      response_url: 'https://hooks.slack.test/r',
    });
    expect(await deliver(app, shortcut('split_message'))).toEqual({ acked: true });
    expect(await deliver(app, shortcut('other'))).toEqual({ acked: false });
    // A view closed is not a submission: the view's handler is for submissions only.
    const closed = {
      type: 'view_closed',
      team,
      user,
      api_app_id: 'A1',
      view: { id: 'V1', callback_id: 'form', state: { values: {} }, private_metadata: '' },
    };
    expect(await deliver(app, closed)).toEqual({ acked: false });
    expect(calls).toEqual(['command 12 lunch', 'shortcut split_message']);
  });

  it("lets a request none of the table's ids matches go on to Bolt's own listeners", async () => {
    const app = boltApp();
    const table = createListenerTable();
    table.action('expense_edit', async ({ ack }) => {
      await ack();
    });
    table.install(app);
    const seen: string[] = [];
    app.action('other', async ({ ack, action }) => {
      seen.push((action as { action_id: string }).action_id);
      await ack();
    });
    expect(await deliver(app, blockAction('other'))).toEqual({ acked: true });
    expect(await deliver(app, blockAction('expense_edit'))).toEqual({ acked: true });
    expect(seen).toEqual(['other']);
  });

  it('refuses a second handler for the same id', () => {
    const table = createListenerTable();
    table.action('expense_edit', async () => undefined);
    expect(() => table.action('expense_edit', async () => undefined)).toThrow(
      'two action listeners for "expense_edit"',
    );
    table.view('expense_edit', async () => undefined);
    table.command('/split', async () => undefined);
    expect(() => table.command('/split', async () => undefined)).toThrow(
      'two command listeners for "/split"',
    );
    table.shortcut('split_message', async () => undefined);
    expect(() => table.shortcut('split_message', async () => undefined)).toThrow(
      'two shortcut listeners for "split_message"',
    );
  });

  it('lists the durable job kinds registered, and refuses a kind twice', () => {
    const table = createListenerTable();
    const split = async () => undefined;
    const form = async () => undefined;
    table.job('split', split);
    table.job('form', form);
    expect(table.jobs()).toEqual({ split, form });
    expect(() => table.job('split', async () => undefined)).toThrow(
      'two job listeners for "split"',
    );
  });
});
