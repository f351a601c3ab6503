/**
 * The currency a form opened for a group starts from: the same choice `/split` makes for the
 * group (the group's saved currency, else the one most of its recent expenses are in), so that a
 * form and a typed command in the same channel book the same currency. The choice is handed in
 * (GroupCurrency); without one, or when it has none, the form starts from the person's own
 * default currency, as before.
 */
import type { Logger } from '@slack/bolt';
import type { SlackUserKey } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';

/** The group a form opens for: the channel's, else the person's default group. */
export interface FormGroup {
  id: number;
  name: string;
  /** Bound to the channel (`/split group use`), or the person's default group (App Home). */
  source: 'channel' | 'default';
}

/**
 * Which currency a group's expenses are in, for this person (through their own link); undefined
 * when the group has no currency of its own yet.
 */
export type GroupCurrency = (
  deps: SlackDeps,
  user: SlackUserKey,
  group: FormGroup,
) => Promise<string | undefined>;

/**
 * The filled form replaces the "opening" view (open.ts), so this waits on nothing Slack times;
 * still, a slow choice (the service reading recent expenses) must not keep the person looking at
 * "Opening the form…": past this, the form starts from their own currency.
 */
const GROUP_CURRENCY_BUDGET_MS = 1_500;

/**
 * The group's currency when the choice gives one in time and it is a code the service knows (or
 * may know: before the currency list is read, any well-formed code); else undefined.
 */
export async function groupStartCurrency(
  choose: GroupCurrency | undefined,
  deps: SlackDeps,
  user: SlackUserKey,
  group: FormGroup | undefined,
  logger: Pick<Logger, 'warn'>,
  budgetMs = GROUP_CURRENCY_BUDGET_MS,
): Promise<string | undefined> {
  if (!choose || !group) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), budgetMs);
  });
  try {
    const code = await Promise.race([
      choose(deps, user, group).catch((error: Error) => {
        logger.warn(`expense form: the currency of group ${group.id} failed: ${error.message}`);
        return undefined;
      }),
      late,
    ]);
    const upper = code?.toUpperCase();
    if (!upper || !/^[A-Z]{3,4}$/.test(upper)) return undefined;
    return deps.reference.knownCurrency(upper) === false ? undefined : upper;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The group a new form opens for: the channel's group, else the person's default group (the
 * caller checks that the person is still in it: a default chosen before they left is stale).
 */
export async function formGroupOf(
  deps: SlackDeps,
  user: SlackUserKey,
  channel: string | undefined,
): Promise<FormGroup | undefined> {
  const [bound, preferences] = await Promise.all([
    channel
      ? deps.bindings.get({ team_id: user.team_id, channel_id: channel }).catch(() => undefined)
      : Promise.resolve(undefined),
    deps.preferences.get(user).catch(() => undefined),
  ]);
  if (bound) return { id: bound.group_id, name: bound.group_name, source: 'channel' };
  const chosen = preferences?.default_group;
  return chosen ? { id: chosen.id, name: chosen.name, source: 'default' } : undefined;
}
