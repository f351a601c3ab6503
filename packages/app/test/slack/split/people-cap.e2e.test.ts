/**
 * What one command may cost Slack: at most 50 people, refused before any Slack call when more are
 * named (a command that named 400 made 400 users.info calls), one lookup per person however often
 * they are named, and no lookups for a group too large for one expense.
 */
import { call, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PEOPLE } from '../../../src/slack/kit/limits.js';
import {
  blocksText,
  type Harness,
  type LinkedPerson,
  startHarness,
} from '../../support/harness.js';

let h: Harness;
let ann: LinkedPerson;

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann' });
});
afterAll(() => h?.close());

const people = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => {
    const slackId = `U0${prefix}${String(i).padStart(3, '0')}`;
    h.addSlackUser({
      slackId,
      first_name: `P${prefix}${i}`,
      email: `${slackId.toLowerCase()}@example.com`,
    });
    return slackId;
  });

const lookups = () =>
  h.slack.callsTo('users.info').length + h.slack.callsTo('users.lookupByEmail').length;
const creates = async () => (await h.serviceCounts())['POST /api/v3.0/create_expense'] ?? 0;

describe('a /split naming many people', () => {
  it('is refused in the ack, before any Slack call or anything kept, when it names more than 50', async () => {
    // As many as a command's 4,000 characters hold; a longer text is refused for its length.
    const named = people(300, 'M');
    const before = { lookups: lookups(), calls: h.slack.calls.length, creates: await creates() };
    const text = `1000 lunch ${named.map((id, i) => (i % 2 ? `<@${id}>` : `<@${id}|p${i}>`)).join(' ')}`;
    const response = await h.sender.command({
      text,
      response_url: h.slack.responseUrl({ id: 'many' }),
    });
    expect(response.status).toBe(200);
    const ack = (await response.json()) as Loose;
    expect(ack.response_type).toBe('ephemeral');
    expect(text.length).toBeLessThanOrEqual(4000);
    expect(ack.text).toContain('That names 300 people, and one command can name at most 50');
    await h.app.deps.work.idle();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(h.slack.calls.length).toBe(before.calls);
    expect(lookups()).toBe(before.lookups);
    expect(await creates()).toBe(before.creates);
    expect(h.slack.responses.filter((p) => p.id === 'many')).toEqual([]);
    expect(h.app.deps.durable.size).toBe(0);
  });

  it('books one that names 50 people, with one lookup each, however often each is named', async () => {
    const named = people(MAX_PEOPLE - 1, 'F');
    const before = lookups();
    // Ann herself, 49 others (the first of them three times), and the payer named again.
    const text = `98 party <@${named[0]}> <@${named[0]}|again> ${named.map((id) => `<@${id}>`).join(' ')} <@U0ANN> paid by <@${named[1]}>`;
    const out = await h.split(text, { user_id: ann.slackId, timeoutMs: 15_000 });
    expect(out.answer.body.response_type).toBe('in_channel');
    const infos = h.slack.callsTo('users.info').slice(-(lookups() - before));
    const asked = infos.map((c) => String(c.args.user));
    expect(new Set(asked).size).toBe(asked.length);
    expect(lookups() - before).toBeLessThanOrEqual(MAX_PEOPLE);
  });

  it('refuses a whole group larger than an expense can be, before looking its members up', async () => {
    const members: Record<string, string> = {};
    for (let i = 0; i < MAX_PEOPLE + 5; i++) {
      members[`users__${i}__email`] = `big.${i}@example.com`;
      members[`users__${i}__first_name`] = `Big${i}`;
    }
    const group = await call(h.emu.url, ann.apiKey, 'POST', 'create_group', {
      name: 'Stadium',
      ...members,
    });
    expect(group.status).toBe(200);
    const before = lookups();
    const out = await h.split('40 hotdogs in Stadium', { user_id: ann.slackId });
    expect(blocksText(out.answer.body.blocks) + String(out.answer.body.text)).toContain(
      'at most 50',
    );
    expect(h.slack.callsTo('users.lookupByEmail').length).toBe(0);
    expect(lookups() - before).toBeLessThanOrEqual(1);
  });

  it('"Split this" on a message that mentions 400 people looks up only as many as the form holds', async () => {
    const named = people(400, 'S');
    const before = h.slack.callsTo('users.info').length;
    const reply = await h.sender.messageShortcut({
      user_id: ann.slackId,
      message: { text: `Dinner 400 ${named.map((id) => `<@${id}>`).join(' ')}` },
    });
    expect(reply.status).toBe(200);
    const opened = await h.slack.waitForCall('views.open', (c) => c.status === 200);
    const viewId = (opened.response as Loose).view.id;
    await h.slack.waitForCall('views.update', (c) => c.args.view_id === viewId, 10_000);
    expect(h.slack.callsTo('users.info').length - before).toBeLessThanOrEqual(MAX_PEOPLE);
  });
});
