/**
 * The channel feed end to end, on one shared store (Redis, or PostgreSQL where the run has no
 * Redis): changes to the group's expenses made straight
 * at the service with another person's token are posted to the bound channel (added, edited,
 * deleted), each once, while two app instances poll, and after a restart; a booking made from
 * that channel is not echoed; expenses outside the group and changes after `feed off` are not
 * posted; and a feed whose owner unlinks stops and says so once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../../src/compose.js';
import type { Group } from '../../../src/service/index.js';
import { type ScratchStore, scratchPostgres, scratchRedis } from '../../replicas/stores.js';
import { ask, book, eventually, serviceFor, textOf } from '../../support/balance-support.js';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import {
  type Harness,
  type LinkedPerson,
  quietLogger,
  SIGNING_SECRET,
  startHarness,
} from '../../support/harness.js';
import { POSTGRES_URL, REDIS_URL } from '../../support/stores.js';

/** A store of the run's own that two app instances share; none when the run has neither server. */
const sharedStore = REDIS_URL ? scratchRedis : POSTGRES_URL ? scratchPostgres : undefined;

import { slackSender } from '../../support/slack-requests.js';

const FLAT = 'C0FEED';
const POLL_MS = 40;
let scratch: ScratchStore;
let h: Harness;
let ann: LinkedPerson;
let bob: LinkedPerson;
let roommates: Group;
const others: RunningApp[] = [];
/** Where commands are sent: the harness's app, then the instance started after a restart. */
let via: Harness;

/** Another instance of the app on the same configuration and store. */
async function anotherInstance(): Promise<RunningApp> {
  const app = await startApp({
    config: h.config,
    logger: quietLogger(),
    slackRetries: 0,
    serviceRetries: 0,
    digest: { scheduler: false },
    feed: { intervalMs: POLL_MS },
  });
  others.push(app);
  return app;
}

/** The feed's posts in the channel that contain `text`. */
const posts = (text: string) =>
  h.slack.messages(FLAT).filter((m) => m.text?.includes(text) && m.text.includes('in Roommates.'));

/** Waits until `text` was posted, then a few polls more, and says how often it was. */
async function postedOnce(text: string): Promise<void> {
  await eventually(() => expect(posts(text).length).toBeGreaterThan(0));
  await new Promise((resolve) => setTimeout(resolve, POLL_MS * 6));
  expect(posts(text)).toHaveLength(1);
}

beforeAll(async () => {
  scratch = await sharedStore!();
  h = await startHarness({ env: { STORE_URL: scratch.url }, feed: { intervalMs: POLL_MS } });
  ann = await h.link({
    slackId: 'U0ANN',
    first_name: 'Ann',
    last_name: 'Lee',
    default_currency: 'EUR',
  });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob', last_name: 'Ray' });
  h.slack.addChannel({ id: FLAT, name: 'flat', botIsMember: true });
  await ask(h, 'group create Roommates <@U0BOB|bob>');
  await ask(h, 'group use Roommates', 'U0ANN', FLAT);
  roommates = (await serviceFor(h, ann).getGroups()).find((g) => g.name === 'Roommates')!;
  via = h;
});
afterAll(async () => {
  await Promise.allSettled(others.map((app) => app.stop()));
  await h?.close();
  await scratch?.drop();
});

describe.skipIf(!sharedStore)('the channel feed', () => {
  it('is refused outside a bound channel, and is off until turned on', async () => {
    expect(textOf(await ask(h, 'feed on'))).toContain('This channel is bound to no group');
    expect(textOf(await ask(h, 'feed', 'U0ANN', FLAT))).toContain('shows no group activity');
  });

  it('is turned on and told to the channel', async () => {
    const on = await ask(h, 'feed on', 'U0ANN', FLAT);
    expect(on.ephemeralFor).toBeUndefined();
    expect(textOf(on)).toContain('<@U0ANN> turned on the activity feed of *Roommates*');
    expect(textOf(await ask(h, 'feed', 'U0ANN', FLAT))).toContain(
      "shows the activity of *Roommates*, read through <@U0ANN>'s account",
    );
  });

  let dinner = 0;
  it('posts an expense another person added at the service, once', async () => {
    dinner = await book(h, bob, {
      cost: '60',
      currency: 'EUR',
      description: 'Dinner',
      group_id: roommates.id,
      shares: [
        { who: bob, owed: '30' },
        { who: ann, owed: '30' },
      ],
    });
    await postedOnce('Bob Ray added "Dinner" €60.00');
    expect(blockKitErrors(posts('Dinner')[0]?.blocks, 'message')).toEqual([]);
  });

  it('posts an edit, and with a second instance polling the same store, a delete once', async () => {
    const edited = await serviceFor(h, bob).updateExpense({
      id: dinner,
      description: 'Dinner out',
    });
    expect(edited.errors).toEqual({});
    await postedOnce('Bob Ray edited "Dinner out" €60.00');
    await anotherInstance();
    expect((await serviceFor(h, bob).deleteExpense(dinner)).success).toBe(true);
    await postedOnce('Bob Ray deleted "Dinner out" €60.00');
  });

  it('goes on after a restart, posting only what is new', async () => {
    await h.app.stop();
    await Promise.all(others.map((app) => app.stop()));
    const restarted = await anotherInstance();
    // Commands go to the instance that runs now.
    via = {
      ...h,
      sender: slackSender({
        appUrl: `${restarted.url}/slack/events`,
        signingSecret: SIGNING_SECRET,
        fake: h.slack,
      }),
    };
    await book(h, bob, {
      cost: '12.50',
      currency: 'EUR',
      description: 'Taxi',
      group_id: roommates.id,
      shares: [
        { who: bob, owed: '6.25' },
        { who: ann, owed: '6.25' },
      ],
    });
    await postedOnce('Bob Ray added "Taxi" €12.50');
    expect(posts('Dinner')).toHaveLength(3);
  });

  it('does not post expenses outside the group, nor echo one booked from Slack', async () => {
    await book(h, bob, {
      cost: '8',
      currency: 'EUR',
      description: 'Coffee',
      shares: [
        { who: bob, owed: '4' },
        { who: ann, owed: '4' },
      ],
    });
    expect(textOf(await ask(via, '30 pizza', 'U0ANN', FLAT))).toContain('pizza');
    await book(h, bob, {
      cost: '5',
      currency: 'EUR',
      description: 'Bread',
      group_id: roommates.id,
      shares: [
        { who: bob, owed: '2.50' },
        { who: ann, owed: '2.50' },
      ],
    });
    // Notifications are read in order: once Bread is posted, Coffee and pizza were passed over.
    await postedOnce('Bob Ray added "Bread" €5.00');
    expect(posts('Coffee')).toEqual([]);
    expect(posts('pizza')).toEqual([]);
  });

  it('stops when turned off', async () => {
    const off = await ask(via, 'feed off', 'U0ANN', FLAT);
    expect(textOf(off)).toContain('<@U0ANN> stopped the activity feed of *Roommates* here.');
    await book(h, bob, {
      cost: '3',
      currency: 'EUR',
      description: 'Milk',
      group_id: roommates.id,
      shares: [
        { who: bob, owed: '1.50' },
        { who: ann, owed: '1.50' },
      ],
    });
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 6));
    expect(posts('Milk')).toEqual([]);
  });

  it('stops, and says so once, when the person who turned it on unlinks', async () => {
    const app = others.at(-1)!;
    await ask(via, 'feed on', 'U0BOB', FLAT);
    await app.deps.tokens.delete({ team_id: 'T0001', user_id: 'U0BOB' });
    const stopped = () =>
      h.slack
        .messages(FLAT)
        .filter((m) => m.text?.includes('The activity feed of *Roommates* here has stopped'));
    await eventually(() => expect(stopped().length).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 6));
    expect(stopped()).toHaveLength(1);
    expect(await app.deps.feeds.get({ team_id: 'T0001', channel_id: FLAT })).toBeUndefined();
  });

  it('is removed when Slack says the app cannot post in its channel', async () => {
    const SECRET = 'G0SECRET';
    h.slack.addChannel({ id: SECRET, name: 'secret', botIsMember: false });
    await ask(via, 'group use Roommates', 'U0ANN', SECRET);
    await ask(via, 'feed on', 'U0ANN', SECRET);
    const app = others.at(-1)!;
    const channel = { team_id: 'T0001', channel_id: SECRET };
    expect(await app.deps.feeds.get(channel)).toBeDefined();
    await book(h, bob, {
      cost: '4',
      currency: 'EUR',
      description: 'Tea',
      group_id: roommates.id,
      shares: [
        { who: bob, owed: '2' },
        { who: ann, owed: '2' },
      ],
    });
    await eventually(async () => expect(await app.deps.feeds.get(channel)).toBeUndefined());
  });
});
