import { type RunningEmulator, startEmulator } from '@split/service-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readManifest, seedDemoWorkspace, startWorkspace, type Workspace } from '../src/index.js';

let ws: Workspace;
let emulator: RunningEmulator;

beforeAll(async () => {
  ws = await startWorkspace();
  emulator = await startEmulator();
});
afterAll(async () => {
  await ws?.close();
  await emulator?.close();
});

describe('demo workspace', () => {
  it('has the emulator demo people (same e-mails), with names, time zones and locales', async () => {
    seedDemoWorkspace(ws);
    seedDemoWorkspace(ws);
    const seeded = (await fetch(`${emulator.url}/__emulator/seed`, { method: 'POST' }).then((r) =>
      r.json(),
    )) as { users: { user: { email: string } }[] };
    const people = ws.pageState('U0ADA').people;
    const emails = people.map((p) => p.email);
    for (const { user } of seeded.users) expect(emails).toContain(user.email);
    expect(people.length).toBeGreaterThanOrEqual(4);
    expect(new Set(emails).size).toBe(people.length);
    for (const person of people) {
      expect(person.display_name).not.toBe('');
      expect(() => new Intl.DateTimeFormat(person.locale, { timeZone: person.tz })).not.toThrow();
    }
  });

  it('has #general, #lunch, a channel for the demo group, and each person’s DM with the app', () => {
    const state = ws.pageState('U0GRACE');
    expect(state.channels.map((c) => [c.name, c.kind])).toEqual([
      ['general', 'channel'],
      ['lunch', 'channel'],
      ['lisbon-trip', 'channel'],
      ['Split', 'app'],
    ]);
    for (const person of state.people)
      expect(ws.channel(ws.dmChannel(person.id))?.is_im).toBe(true);
  });
});

describe('readManifest', () => {
  it('reads the name, commands, shortcuts, bot scopes and bot events', () => {
    const facts = readManifest(`
display_information:
  name: Split app
features:
  bot_user:
    display_name: Split
  slash_commands:
    - command: /split
      description: Split an expense
      usage_hint: "40 lunch @ann"
  shortcuts:
    - name: Split this
      type: message
      callback_id: split_message
      description: Split it
oauth_config:
  scopes:
    bot: [commands, chat:write]
settings:
  event_subscriptions:
    bot_events: [app_home_opened]
`);
    expect(facts).toEqual({
      name: 'Split',
      commands: [
        { command: '/split', description: 'Split an expense', usage_hint: '40 lunch @ann' },
      ],
      shortcuts: [{ callback_id: 'split_message', name: 'Split this', type: 'message' }],
      scopes: ['commands', 'chat:write'],
      events: ['app_home_opened'],
    });
  });

  it('refuses text that is not a mapping', () => {
    expect(() => readManifest('- just\n- a list\n')).toThrow(/not a YAML mapping/);
  });
});
