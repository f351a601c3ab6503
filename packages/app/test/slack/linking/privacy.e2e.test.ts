/**
 * A person's data, fully removable, over real HTTP: `/split disconnect` removes everything kept
 * for the person and says what; App Home lists what is kept, with a button (behind a confirm
 * dialog) that removes it; `app_uninstalled` removes the workspace's records and
 * `tokens_revoked` the links of the people it names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { button, eventually } from '../../support/balance-support.js';
import type { FakeView } from '../../support/fake-slack.js';
import { blocksText, type Harness, startHarness, TEAM } from '../../support/harness.js';
import { viewPayload } from '../../support/slack-requests.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const key = (user_id: string, team_id = TEAM) => ({ team_id, user_id });
const nothing = { token: false, preferences: false, digest: null, lastBooked: false };

/** Links the person and gives them one of everything the app keeps. */
async function withEverything(slackId: string, first_name: string) {
  await h.link({ slackId, first_name });
  const user = key(slackId);
  const deps = h.app.deps;
  await deps.preferences.setDefaultGroup(user, { id: 5, name: 'Trip' });
  await deps.digest.enable(user, { tz: 'Europe/Paris' });
  await deps.digest.update(user, () => ({ snapshot: { friends: {} } }));
  await deps.expenses.rememberBooked(user, { expense_id: 3, description: 'taxi' });
  await deps.expenses.saveDraft(user, `V-${slackId}`, {});
  await deps.linking.connectUrl(user);
}

async function published(user: string, before: number): Promise<FakeView> {
  await eventually(() => {
    const calls = h.slack.callsTo('views.publish').filter((c) => c.args.user_id === user);
    expect(calls.length).toBeGreaterThan(before);
  });
  return h.slack.homeView(user)!;
}

const publishes = (user: string) =>
  h.slack.callsTo('views.publish').filter((c) => c.args.user_id === user).length;

describe('/split disconnect', () => {
  it('removes everything kept for the person, says what, and leaves others alone', async () => {
    await withEverything('U0ANN', 'Ann');
    await withEverything('U0BOB', 'Bob');
    const { answer } = await h.split('disconnect', { user_id: 'U0ANN' });
    const text = (answer.body as { text: string }).text;
    expect(text).toContain('Disconnected.');
    for (const kept of [
      'the link to your Splitwise account',
      'your default group',
      'your daily balance DM settings, with the balances it last showed you',
      'the last expense you booked from Slack',
      '1 unfinished expense form',
      '1 connect link',
    ]) {
      expect(text).toContain(kept);
    }
    expect(await h.app.deps.forget.about(key('U0ANN'))).toEqual(nothing);
    expect(await h.app.deps.expenses.draft(key('U0ANN'), 'V-U0ANN')).toBeUndefined();
    expect((await h.app.deps.forget.about(key('U0BOB'))).token).toBe(true);

    const again = await h.split('disconnect', { user_id: 'U0ANN' });
    expect((again.answer.body as { text: string }).text).toContain("You weren't connected");
  });
});

describe('App Home', () => {
  /** Opens the person's Home, clicks `action_id` there and returns the tab published after. */
  async function removeFromHome(user: string, action_id: string, title: string) {
    const before = publishes(user);
    expect((await h.sender.appHomeOpened({ user })).status).toBe(200);
    const home = await published(user, before);
    const text = blocksText(home.view.blocks);
    expect(text).toContain('What Split keeps about you');
    expect(text).toContain('your daily balance DM settings');
    expect(button(home.view.blocks, action_id).confirm).toMatchObject({ title: { text: title } });
    const clicked = publishes(user);
    const sent = await h.sender.blockActions({
      user_id: user,
      actions: { action_id, value: action_id === 'home_forget' ? 'forget' : 'disconnect' },
      view: viewPayload({ id: home.id, type: 'home', blocks: home.view.blocks as unknown[] }),
    });
    expect(sent.status).toBe(200);
    return { home, after: await published(user, clicked) };
  }

  it('lists what is kept, and Disconnect removes it all for someone connected', async () => {
    await withEverything('U0CAT', 'Cat');
    const { home, after } = await removeFromHome('U0CAT', 'home_disconnect', 'Disconnect?');
    // One button removes the data: the list has none of its own while Disconnect is there.
    expect(() => button(home.view.blocks, 'home_forget')).toThrow();
    expect(blocksText(after.view.blocks)).toContain('Removed everything I kept about you');
    expect(blocksText(after.view.blocks)).not.toContain('What Split keeps about you');
    expect(await h.app.deps.forget.about(key('U0CAT'))).toEqual(nothing);
  });

  it('offers Remove my data to someone no longer connected whose settings are kept', async () => {
    await withEverything('U0DOT', 'Dot');
    await h.app.deps.unlinking.unlink(key('U0DOT'));
    const { after } = await removeFromHome('U0DOT', 'home_forget', 'Remove your data?');
    expect(blocksText(after.view.blocks)).toContain('Removed everything I kept about you');
    expect(await h.app.deps.forget.about(key('U0DOT'))).toEqual(nothing);
  });
});

describe('events from Slack', () => {
  it('tokens_revoked removes the links of the people it names', async () => {
    await withEverything('U0DAN', 'Dan');
    await withEverything('U0EVE', 'Eve');
    const sent = await h.sender.event({
      type: 'tokens_revoked',
      tokens: { oauth: ['U0DAN'], bot: [] },
    });
    expect(sent.status).toBe(200);
    await eventually(async () => {
      expect(await h.app.deps.tokens.get(key('U0DAN'))).toBeUndefined();
    });
    expect(await h.app.deps.tokens.get(key('U0EVE'))).toBeDefined();
  });

  it('app_uninstalled removes everything kept for the workspace, and only for it', async () => {
    await withEverything('U0FAY', 'Fay');
    const elsewhere = key('U0FAY', 'T0OTHER');
    await h.app.deps.preferences.setDefaultGroup(elsewhere, { id: 1, name: 'Home' });
    await h.app.deps.bindings.set(
      { team_id: TEAM, channel_id: 'C0TRIP' },
      { group_id: 5, group_name: 'Trip', bound_by: 'U0FAY', bound_at: new Date().toISOString() },
    );
    const sent = await h.sender.event({ type: 'app_uninstalled' });
    expect(sent.status).toBe(200);
    await eventually(async () => {
      for (const user of ['U0BOB', 'U0DAN', 'U0EVE', 'U0FAY']) {
        expect(await h.app.deps.forget.about(key(user))).toEqual(nothing);
      }
    });
    expect(await h.app.deps.bindings.get({ team_id: TEAM, channel_id: 'C0TRIP' })).toBeUndefined();
    expect(await h.app.deps.expenses.draft(key('U0BOB'), 'V-U0BOB')).toBeUndefined();
    expect((await h.app.deps.forget.about(elsewhere)).preferences).toBe(true);
  });
});
