/**
 * Slack user -> service person, in the order the design states: their own link (by id, when the
 * caller may add them by id), else their Slack e-mail among the caller's friends, else an
 * invitation by e-mail and name (the service adds an existing account with that e-mail, or invites
 * a new one).
 */
import type { Friend, PersonRef, ServiceClient } from '../service/index.js';
import type { SlackUserKey, TokenStore } from '../store/index.js';
import type { Directory, SlackPerson } from './directory.js';
import type { LookupBudget } from './lookups.js';

export interface ResolvedPerson {
  ref: PersonRef;
  /** How they were found, for logs and tests. */
  via: 'caller' | 'link' | 'friend' | 'invitation';
  slack: SlackPerson | undefined;
}

export type ResolveProblem =
  | { kind: 'bot'; user_id: string }
  | { kind: 'no_email'; user_id: string }
  | { kind: 'deleted'; user_id: string };

export interface ResolveInput {
  caller: SlackUserKey & { service_user_id: number };
  /** Slack user ids; the caller may be among them. */
  ids: readonly string[];
  tokens: TokenStore;
  directory: Directory;
  /** The request's: each person not cached is one users.info. */
  lookups: LookupBudget;
  client: ServiceClient;
}

export async function resolvePeople(
  input: ResolveInput,
): Promise<{ people: Map<string, ResolvedPerson> } | { problem: ResolveProblem }> {
  const { caller, tokens, directory, client } = input;
  const people = new Map<string, ResolvedPerson>();
  const others = [...new Set(input.ids)].filter((id) => id !== caller.user_id);
  if (input.ids.includes(caller.user_id)) {
    people.set(caller.user_id, {
      ref: { user_id: caller.service_user_id },
      via: 'caller',
      slack: undefined,
    });
  }
  if (others.length === 0) return { people };

  const [friends, found] = await Promise.all([
    directory.friends(caller, client),
    Promise.all(
      others.map(async (id) => ({
        id,
        // Whether someone mentioned has linked changes rarely; the id is cached with the rest.
        link: await directory.linkedId(
          { team_id: caller.team_id, user_id: id },
          async () =>
            (await tokens.get({ team_id: caller.team_id, user_id: id }))?.service_user_id ?? null,
        ),
        slack: await directory.slackUser(caller.team_id, id, input.lookups),
      })),
    ),
  ]);
  const friendIds = new Set(friends.map((f) => f.id));
  const byEmail = new Map<string, Friend>();
  for (const friend of friends) {
    if (friend.email) byEmail.set(friend.email.toLowerCase(), friend);
  }

  for (const { id, link, slack } of found) {
    if (slack.is_bot) return { problem: { kind: 'bot', user_id: id } };
    if (slack.deleted) return { problem: { kind: 'deleted', user_id: id } };
    if (link !== null && friendIds.has(link)) {
      people.set(id, { ref: { user_id: link }, via: 'link', slack });
      continue;
    }
    const friend = slack.email ? byEmail.get(slack.email.toLowerCase()) : undefined;
    if (friend) {
      people.set(id, { ref: { user_id: friend.id }, via: 'friend', slack });
    } else if (slack.email) {
      people.set(id, {
        ref: {
          email: slack.email,
          first_name: slack.first_name,
          ...(slack.last_name ? { last_name: slack.last_name } : {}),
        },
        via: 'invitation',
        slack,
      });
    } else if (link !== null) {
      // Linked but not yet acquainted and without a visible e-mail: the id is all there is.
      people.set(id, { ref: { user_id: link }, via: 'link', slack });
    } else {
      return { problem: { kind: 'no_email', user_id: id } };
    }
  }
  return { people };
}
