/**
 * One amount and one date, written one way per person, on every path. A fixed debt (Ann owes the
 * person €1,234.50, booked on 27 November 2026) is shown to an en-US, a de-DE and a ja-JP person
 * through every path in the table below, end to end (the app, the emulator, the simulated Slack);
 * each path's text must write the amount exactly as the person's voice does, and nothing else
 * that looks like it, and the date likewise where the path shows it.
 *
 * A new path is one more row in PATHS: what it shows of the debt, and how to make the app render
 * it for a person (a command, a click, a job run), returning all the text the person reads there.
 * The last rows book the same amount, on the same day, with `/split` (typed the person's way),
 * and follow it: the answer, its Details, the Duplicate form, `/split list`, and the channel feed
 * of a group the person watches. The CSV export, for machines, keeps numbers and dates plain and
 * names its columns, and the debtor, in the person's language.
 */
import { randomBytes } from 'node:crypto';
import { control, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ask,
  book,
  button,
  CHANNEL,
  click,
  current,
  eventually,
  serviceFor,
  textOf,
} from '../support/balance-support.js';
import { blocksText, type Harness, type LinkedPerson, startHarness } from '../support/harness.js';
import { element, formOpened } from '../support/modal-support.js';

/** The fixed debt: Ann owes each person €1,234.50 since this day. */
const DEBT = { currency: 'EUR', since: '2026-11-27' };
/** Midday UTC of that day: the same calendar day in New York, Berlin and Tokyo. */
const WHEN = `${DEBT.since}T12:00:00Z`;

interface Person {
  slackId: string;
  first_name: string;
  locale: string;
  tz: string;
  /**
   * How their voice writes the debt: its amount, its date, its day in a heading, and the amount
   * as they type it (and as a form's field holds it); the CSV's first columns.
   */
  writes: { money: string; date: string; day: string; typed: string; csv: string };
}

const PEOPLE: Person[] = [
  {
    slackId: 'U0UMA',
    first_name: 'Uma',
    locale: 'en-US',
    tz: 'America/New_York',
    writes: {
      money: '€1,234.50',
      date: 'Fri, Nov 27, 2026',
      day: 'Friday, November 27',
      typed: '1234.50',
      csv: 'Date,Description,Category,Currency,Cost',
    },
  },
  {
    slackId: 'U0DIRK',
    first_name: 'Dirk',
    locale: 'de-DE',
    tz: 'Europe/Berlin',
    writes: {
      money: '1.234,50 €',
      date: 'Fr., 27. Nov. 2026',
      day: 'Freitag, 27. November',
      typed: '1234,50',
      csv: 'Datum,Beschreibung,Kategorie,Währung,Betrag',
    },
  },
  {
    slackId: 'U0JUN',
    first_name: 'Jun',
    locale: 'ja-JP',
    tz: 'Asia/Tokyo',
    writes: {
      money: '€1,234.50',
      date: '2026年11月27日(金)',
      day: '11月27日金曜日',
      typed: '1234.50',
      csv: '日付,内容,カテゴリ,通貨,金額',
    },
  },
];

/**
 * What a path writes about the debt: its amount, its date, its day named in a heading; or, in a
 * form's field, the amount as the person types it.
 */
type Shown = 'money' | 'date' | 'day' | 'typed';

interface World {
  h: Harness;
  ann: LinkedPerson;
  people: Map<Person, LinkedPerson>;
  /** The answer each person's `/split` booking made in the channel, for the paths that follow it. */
  booked: Map<Person, FakeMessage>;
}

type FakeMessage = Awaited<ReturnType<typeof ask>>;

function bookedBy(world: World, person: Person): FakeMessage {
  const message = world.booked.get(person);
  if (!message) throw new Error(`${person.slackId} booked nothing yet`);
  return message;
}

interface Path {
  name: string;
  shows: readonly Shown[];
  /** Everything the person reads on this path (blocks and notification text), as one string. */
  render(world: World, person: Person): Promise<string>;
}

/** Every Home publish for `user` so far. */
const publishes = (h: Harness, user: string) =>
  h.slack.callsTo('views.publish').filter((c) => c.args.user_id === user).length;

/** The person's daily DM for the debt's day, sent by the app's runner. */
async function dailyDm({ h }: World, person: Person) {
  const user = { team_id: 'T0001', user_id: person.slackId };
  await h.app.deps.digest.enable(user, { tz: person.tz, hour: 0 });
  const subscription = await h.app.deps.digest.get(user);
  await h.app.digest.runner.runOne(subscription!, new Date(WHEN));
  const channel = h.slack.dmChannel(person.slackId);
  const dm = h.slack.messages(channel).at(-1);
  if (!dm) throw new Error(`no daily DM for ${person.slackId}`);
  return { dm, channel };
}

const PATHS: Path[] = [
  {
    name: 'the /split balance answer',
    shows: ['money'],
    render: async ({ h }, person) => textOf(await ask(h, 'balance', person.slackId)),
  },
  {
    name: 'the Pay part form, opened under the balance',
    shows: ['money'],
    render: async ({ h }, person) => {
      const message = await ask(h, 'balance', person.slackId);
      const menu = button(message.blocks, 'balance_settle_part') as unknown as {
        options: Array<{ text: { text: string }; value: string }>;
      };
      const option = menu.options.find((o) => o.text.text.includes('Ann Lee'));
      const since = Date.now();
      await h.sender.blockActions({
        user_id: person.slackId,
        channel_id: CHANNEL,
        actions: {
          action_id: 'balance_settle_part',
          type: 'static_select',
          selected_option: option,
        },
        message: { ts: message.ts, text: message.text ?? '', blocks: message.blocks ?? [] },
        response_url: h.slack.responseUrl({
          id: randomBytes(8).toString('hex'),
          channel: CHANNEL,
          user: person.slackId,
        }),
      });
      const opened = await h.slack.waitForCall('views.open', (c) => c.at >= since);
      return blocksText(opened.args.view);
    },
  },
  {
    name: 'App Home',
    shows: ['money', 'date'],
    render: async ({ h }, person) => {
      const before = publishes(h, person.slackId);
      await h.sender.appHomeOpened({ user: person.slackId });
      await eventually(() => expect(publishes(h, person.slackId)).toBeGreaterThan(before));
      return blocksText(h.slack.homeView(person.slackId)?.view.blocks);
    },
  },
  {
    name: 'the daily DM',
    shows: ['money', 'day'],
    render: async (world, person) => textOf((await dailyDm(world, person)).dm),
  },
  {
    name: "the daily DM's Settle up, answered with a confirmation",
    shows: ['money'],
    render: async (world, person) => {
      const { dm, channel } = await dailyDm(world, person);
      const settle = button(dm.blocks, 'digest_settle_up', 'Ann Lee');
      const posted = await (await click(world.h, dm, settle, person.slackId, channel)).answer();
      return textOf(posted.body as { text?: string; blocks?: unknown });
    },
  },
  {
    name: 'the balances shown again after a Settle up',
    shows: ['money'],
    render: async ({ h }, person) => {
      // Bob's debt is settled; Ann's stays, and the refreshed balances show it.
      const message = await ask(h, 'balance', person.slackId);
      const settle = button(message.blocks, 'balance_settle_up', 'Bob Ray');
      await (await click(h, message, settle, person.slackId)).answer();
      const after = textOf(current(h, message));
      expect(after).toContain('✅');
      return after;
    },
  },
  {
    name: 'the answer to a /split that books the amount',
    shows: ['money', 'date'],
    render: async (world, person) => {
      const text = `${person.writes.typed} EUR Hotel <@U0ANN> on ${DEBT.since}`;
      const message = await ask(world.h, text, person.slackId);
      expect(message.blocks, message.text).toBeDefined();
      world.booked.set(person, message);
      return textOf(message);
    },
  },
  {
    name: 'its Details',
    shows: ['money', 'date'],
    render: async (world, person) => {
      const message = bookedBy(world, person);
      const details = button(message.blocks, 'expense_details');
      const answer = await (await click(world.h, message, details, person.slackId)).answer();
      return textOf(answer.body as { text?: string; blocks?: unknown });
    },
  },
  {
    name: 'the Duplicate form, filled from it',
    shows: ['typed'],
    render: async (world, person) => {
      const message = bookedBy(world, person);
      const since = world.h.slack.now();
      await click(world.h, message, button(message.blocks, 'expense_duplicate'), person.slackId);
      const form = await formOpened(world.h, since);
      return `${element(form.view, 'form_amount').initial_value}\n${blocksText(form.view.blocks)}`;
    },
  },
  {
    name: '/split list',
    shows: ['money', 'date'],
    render: async ({ h }, person) => textOf(await ask(h, 'list', person.slackId)),
  },
  {
    name: "the feed of a group's changes, in a channel the person watches",
    shows: ['money'],
    render: async ({ h, ann, people }, person) => {
      const channel = `C0FEED${person.slackId.slice(3)}`;
      const name = `Museum club ${person.first_name}`;
      h.slack.addChannel({ id: channel, name: channel.toLowerCase(), botIsMember: true });
      await ask(h, `group create ${name} <@U0ANN>`, person.slackId);
      await ask(h, `group use ${name}`, person.slackId, channel);
      await ask(h, 'feed on', person.slackId, channel);
      const linked = people.get(person)!;
      const group = (await serviceFor(h, linked).getGroups()).find((g) => g.name === name)!;
      // Ann pays it all for herself: the person's debt stays what it was.
      await book(h, ann, {
        cost: '1234.50',
        currency: DEBT.currency,
        description: 'Museum tickets',
        group_id: group.id,
        shares: [
          { who: ann, owed: '1234.50' },
          { who: linked, owed: '0' },
        ],
      });
      await h.app.feed.poller.pollAll();
      const post = h.slack.messages(channel).find((m) => m.text?.includes('Museum tickets'));
      if (!post) throw new Error(`no feed post in ${channel}`);
      return textOf(post);
    },
  },
];

/**
 * Every way an amount of 1234.50 is written in `text`: the digits with whatever grouping and
 * decimal marks, and a currency sign or code right before or after.
 */
function amountsIn(text: string): string[] {
  const found = text.match(
    /(?:€|EUR|US\$|\$)?[\u00a0\u202f ]?1[.,'\u00a0\u202f ]?234[.,]50(?:[\u00a0\u202f ]?(?:€|EUR))?/g,
  );
  return [...new Set((found ?? []).map((m) => m.trim().replace(/[\u00a0\u202f]/g, ' ')))];
}

const spacedLike = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

let world: World;

beforeAll(async () => {
  const h = await startHarness();
  const ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', last_name: 'Lee' });
  const bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob', last_name: 'Ray' });
  const people = new Map<Person, LinkedPerson>();
  for (const person of PEOPLE) people.set(person, await h.link(person));
  // Everything is booked on the debt's day, so that what the service says happened is dated then.
  await control(h.emu.url, 'POST', 'clock', { now: WHEN });
  for (const [, linked] of people) {
    // Ann's debt in two expenses whose own amounts differ from it (the activity shows those):
    // the person paid €2,000.00 for Ann, and Ann €765.50 for the person.
    await book(h, linked, {
      cost: '2000',
      currency: DEBT.currency,
      description: 'Rent',
      shares: [
        { who: linked, owed: '0' },
        { who: ann, owed: '2000' },
      ],
    });
    await book(h, ann, {
      cost: '765.50',
      currency: DEBT.currency,
      description: 'Train',
      shares: [
        { who: ann, owed: '0' },
        { who: linked, owed: '765.50' },
      ],
    });
    // And Bob owes them €10.00, for the Settle up path to settle.
    await book(h, linked, {
      cost: '20',
      currency: DEBT.currency,
      shares: [
        { who: linked, owed: '10' },
        { who: bob, owed: '10' },
      ],
    });
    const friend = await serviceFor(h, linked).getFriend(ann.serviceId);
    expect(friend.balance).toEqual([{ currency_code: 'EUR', amount: '1234.5' }]);
  }
  world = { h, ann, people, booked: new Map() };
});
afterAll(() => world?.h.close());

describe.each(PEOPLE)('the debt, as $locale reads it on every path', (person) => {
  it('is written the same way on each, as the person writes amounts and dates', async () => {
    const others = PEOPLE.filter((p) => p.writes.money !== person.writes.money);
    const otherDates = PEOPLE.filter((p) => p !== person).flatMap((p) => [
      p.writes.date,
      p.writes.day,
    ]);
    const seen = new Map<string, string[]>();
    for (const path of PATHS) {
      const text = await path.render(world, person);
      const where = `${path.name}, for ${person.locale}`;
      seen.set(path.name, amountsIn(text));
      if (path.shows.includes('typed')) expect(text, where).toContain(person.writes.typed);
      if (path.shows.includes('date')) {
        expect(spacedLike(text), where).toContain(spacedLike(person.writes.date));
      }
      if (path.shows.includes('day')) {
        expect(spacedLike(text), where).toContain(spacedLike(person.writes.day));
      }
      for (const other of [...otherDates, DEBT.since]) expect(text, where).not.toContain(other);
      for (const other of others) {
        expect(spacedLike(text), where).not.toContain(spacedLike(other.writes.money));
      }
    }
    // One comparison: every path wrote the amount, and wrote it exactly one way, the person's
    // (a form's field, the way they type it).
    const want = (path: Path) =>
      path.shows.includes('typed') ? [person.writes.typed] : [spacedLike(person.writes.money)];
    expect(Object.fromEntries(seen)).toEqual(
      Object.fromEntries(PATHS.map((path) => [path.name, want(path)])),
    );
  });

  it('is exported to CSV with plain numbers and dates, under headers in their language', async () => {
    const { h } = world;
    const since = h.slack.now();
    await ask(h, 'export', person.slackId);
    const done = await h.slack.waitForCall(
      'files.completeUploadExternal',
      (c) => c.at >= since,
      5_000,
    );
    const fileId = ((done.response as Loose).files as Loose[])[0].id as string;
    const file = await fetch(`${h.slack.origin}/files/${fileId}/download/x.csv`, {
      headers: { authorization: `Bearer ${h.slack.team.botToken}` },
    });
    const [header, ...rows] = (await file.text()).replace(/^\uFEFF/, '').split('\r\n');
    expect(header?.startsWith(person.writes.csv), header).toBe(true);
    expect(header).toContain('Ann Lee');
    const hotel = rows.find((row) => row.includes('Hotel'));
    expect(hotel).toMatch(new RegExp(`^${DEBT.since},Hotel,[^,]*,EUR,1234\\.50?,`));
  });
});
