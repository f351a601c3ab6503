/**
 * People a person can mention, for the `/split` forms that errors and help show: an example that
 * names `@ann` in a workspace without an Ann does not work when copied. Found cheaply, and only
 * when an answer shows a form: the people the command itself mentions, then the person's friends
 * at the expense service who are in this workspace (the directory caches both lists). Nobody
 * found, the forms keep their stand-ins. The app has no scope to read a channel's members, so
 * those are not asked for.
 */
import type { Logger } from '@slack/bolt';
import type { LookupBudget } from '../../accounts/lookups.js';
import type { Friend } from '../../service/index.js';
import type { SlackUserKey } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import { mentionedIds } from '../kit/limits.js';

/** A form names at most three people (`@ann`, `@bob`, `@cho`). */
const WANTED = 3;
/** Friends looked up in Slack at most: each is a users.lookupByEmail until cached. */
const LOOKUPS = 6;
/** An error is answered without its people rather than late. */
const BUDGET_MS = 1_500;

const USER_ID = /^[UW][A-Z0-9]{2,}$/;

function newestFirst(a: Friend, b: Friend): number {
  return (b.updated_at ?? '').localeCompare(a.updated_at ?? '');
}

async function friendsInWorkspace(
  deps: Pick<SlackDeps, 'tokens' | 'directory' | 'service'>,
  user: SlackUserKey,
  lookups: LookupBudget,
): Promise<string[]> {
  const record = await deps.tokens.get(user);
  if (!record) return [];
  const friends = await deps.directory.friends(user, deps.service.forLink(record));
  const emails = [...friends]
    .filter((f) => f.email)
    .sort(newestFirst)
    .slice(0, LOOKUPS)
    .map((f) => String(f.email));
  const ids = await Promise.all(
    emails.map((email) =>
      deps.directory.slackIdByEmail(user.team_id, email, lookups).catch(() => null),
    ),
  );
  return ids.filter((id): id is string => id !== null);
}

/**
 * Up to three Slack ids, besides the person's own, that `user` can mention: those `typed` mentions
 * first, then friends of theirs who are in the workspace. Never fails: what could not be read is
 * left out.
 */
export async function examplePeople(input: {
  deps: Pick<SlackDeps, 'tokens' | 'directory' | 'service'>;
  user: SlackUserKey;
  /** The command's text, whose mentions come first. */
  typed?: string | undefined;
  /** The request's Slack lookups. */
  lookups: LookupBudget;
  logger?: Pick<Logger, 'warn'> | undefined;
}): Promise<string[]> {
  const { deps, user } = input;
  const found: string[] = [];
  const add = (id: string) => {
    if (found.length < WANTED && id !== user.user_id && USER_ID.test(id) && !found.includes(id)) {
      found.push(id);
    }
  };
  for (const id of mentionedIds(input.typed ?? '')) add(id);
  if (found.length >= WANTED) return found;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string[]>((resolve) => {
    timer = setTimeout(() => resolve([]), BUDGET_MS);
    timer.unref();
  });
  const friends = await Promise.race([
    friendsInWorkspace(deps, user, input.lookups).catch((error: Error) => {
      input.logger?.warn({
        msg: 'example people: friends not read: {error}',
        error: error.message,
      });
      return [];
    }),
    late,
  ]);
  clearTimeout(timer);
  for (const id of friends) add(id);
  return found;
}
