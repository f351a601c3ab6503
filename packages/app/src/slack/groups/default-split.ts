/**
 * `/split group default [<group>] ...`: shows, saves or clears a group's default split. The group
 * is the one named, else the channel's (or the caller's default group). Everyone in a default
 * must be in the group when it is saved; whoever leaves it later is noticed when it is used.
 */
import { DEFAULT_EXAMPLE, ME } from '../../core/command/index.js';
import type { Group, ServiceClient } from '../../service/index.js';
import type { DefaultPart } from '../../store/index.js';
import type { Voice } from '../../voice/index.js';
import {
  defaultParts,
  defaultShort,
  groupCurrencyShown,
  saveGroupCurrency,
} from '../booking/index.js';
import { mention } from '../kit/text.js';
import {
  linked,
  type SplitContext,
  type SplitHandler,
  tellFailure,
} from '../shared/split-context.js';
import { TOLD, type Told, told } from '../shared/told.js';
import { findGroup, peopleFor } from './commands.js';
import { groupError, groupName, groupNotice, typed } from './views.js';

/** The group named, else the channel's or the caller's default group; TOLD once told. */
async function groupOf(
  c: SplitContext<'group_default'>,
  voice: Voice,
  client: ServiceClient,
): Promise<Group | Told> {
  if (c.parsed.group !== null) return findGroup(c, client, c.parsed.group, DEFAULT_EXAMPLE);
  const binding = c.binding;
  if (!binding) {
    await c.reply.ephemeral(groupError(voice, voice.t('groups.which_group'), DEFAULT_EXAMPLE));
    return TOLD;
  }
  const groups = await c.deps.directory.groups(c.user, client, true);
  const found = groups.find((g) => g.id === binding.group_id);
  if (!found) {
    await c.reply.ephemeral(
      groupError(
        voice,
        voice.t('groups.cannot_find', { group: groupName(binding.group_name) }),
        DEFAULT_EXAMPLE,
      ),
    );
    return TOLD;
  }
  return found;
}

type Asked = SplitContext<'group_default'>;
type SetAsked = Extract<Asked['parsed'], { action: 'set' }>;

/** What the group's default split and currency are now. */
async function showDefault(c: Asked, group: Group): Promise<void> {
  const { voice } = c;
  const key = { team_id: c.user.team_id, group_id: group.id };
  const name = groupName(group.name);
  const saved = await c.deps.splitDefaults.get(key);
  const currency = await groupCurrencyShown(voice, c.deps.splitDefaults, key, group.name);
  const split = saved
    ? voice.t('groups.default_saved', {
        group: name,
        short: defaultShort(voice, saved),
        parts: defaultParts(voice, saved),
      })
    : voice.t('groups.default_none', { group: name });
  await c.reply.ephemeral(groupNotice(`${split} ${currency}`));
}

/** Forgets the group's default split and currency, and says so in the channel. */
async function clearDefault(c: Asked, group: Group): Promise<void> {
  const { voice } = c;
  const key = { team_id: c.user.team_id, group_id: group.id };
  const name = groupName(group.name);
  const [hadSplit, hadCurrency] = await Promise.all([
    c.deps.splitDefaults.delete(key),
    c.deps.splitDefaults.deleteCurrency(key),
  ]);
  if (!hadSplit && !hadCurrency) {
    await c.reply.ephemeral(
      groupNotice(voice.t('groups.default_nothing_to_clear', { group: name })),
    );
    return;
  }
  await c.reply.inChannel(
    groupNotice(
      voice.t('groups.default_cleared', { person: mention(c.inv.user_id), group: name }),
      voice.t('groups.default_cleared_detail'),
    ),
  );
}

/** Saves `currency` as the group's, and says so in the channel. */
async function saveCurrency(c: Asked, group: Group, currency: string): Promise<void> {
  const { said, detail } = await saveGroupCurrency({
    voice: c.voice,
    splitDefaults: c.deps.splitDefaults,
    group: { team_id: c.user.team_id, group_id: group.id, name: group.name },
    currency,
    by: c.inv.user_id,
    at: c.deps.now(),
  });
  await c.reply.inChannel(groupNotice(said, detail));
}

/**
 * The default's parts, each person as the group's member at the service, and the people named who
 * are not in the group (as mentions); TOLD once the person was told someone can't be named.
 */
async function partsOf(
  c: Asked,
  group: Group,
  link: { client: ServiceClient; record: { service_user_id: number } },
  split: SetAsked['split'],
): Promise<{ parts: DefaultPart[]; outside: string[] } | Told> {
  const values =
    split.kind === 'percent'
      ? split.percents.map((p) => ({ id: p.id, value: p.basisPoints }))
      : split.shares.map((p) => ({ id: p.id, value: p.shares }));
  const ids = values.map((v) => (v.id === ME ? c.inv.user_id : v.id));
  const refs = await peopleFor(c, link.client, link.record.service_user_id, ids);
  if (told(refs)) return TOLD;
  const others = ids.filter((id) => id !== c.inv.user_id);
  const members = new Map(group.members.map((m) => [m.id, m]));
  const parts: DefaultPart[] = [];
  const outside: string[] = [];
  for (const [i, id] of ids.entries()) {
    let serviceId: number | undefined;
    if (id === c.inv.user_id) serviceId = link.record.service_user_id;
    else {
      const ref = refs[others.indexOf(id)];
      if (ref && 'user_id' in ref) serviceId = ref.user_id;
      else if (ref) {
        const email = ref.email.toLowerCase();
        serviceId = group.members.find((m) => m.email?.toLowerCase() === email)?.id;
      }
    }
    if (serviceId === undefined || !members.has(serviceId)) outside.push(mention(id));
    else parts.push({ slack_id: id, service_user_id: serviceId, value: values[i]!.value });
  }
  return { parts, outside };
}

/** Saves the default split given (and its currency, when one was given), or says who is not in. */
async function setDefault(
  c: Asked,
  group: Group,
  link: { client: ServiceClient; record: { service_user_id: number } },
  parsed: SetAsked,
): Promise<void> {
  const { voice } = c;
  const name = groupName(group.name);
  const found = await partsOf(c, group, link, parsed.split);
  if (told(found)) return;
  const { parts, outside } = found;
  if (outside.length > 0) {
    const text = voice.t('groups.default_outside', {
      people: voice.list(outside),
      count: outside.length,
      group: name,
    });
    await c.reply.ephemeral(groupError(voice, text, `/split group add @ann ${group.name}`));
    return;
  }
  const saved = {
    group_id: group.id,
    group_name: group.name,
    kind: parsed.split.kind,
    parts,
    set_by: c.inv.user_id,
    set_at: c.deps.now().toISOString(),
  };
  await c.deps.splitDefaults.set({ team_id: c.user.team_id, group_id: group.id }, saved);
  await c.reply.inChannel(
    groupNotice(
      voice.t('groups.default_set', {
        person: mention(c.inv.user_id),
        group: name,
        short: defaultShort(voice, saved),
        parts: defaultParts(voice, saved),
      }),
      voice.t('groups.default_set_detail', {
        rent: typed(voice.t('groups.default_rent', { group: group.name })),
      }),
    ),
  );
  if (parsed.currency !== null) await saveCurrency(c, group, parsed.currency);
}

export const groupDefault: SplitHandler<'group_default'> = async (c) => {
  const link = await linked(c);
  if (told(link)) return;
  try {
    const group = await groupOf(c, c.voice, link.client);
    if (told(group)) return;
    const parsed = c.parsed;
    if (parsed.action === 'show') return await showDefault(c, group);
    if (parsed.action === 'clear') return await clearDefault(c, group);
    if (parsed.action === 'currency') return await saveCurrency(c, group, parsed.currency);
    await setDefault(c, group, link, parsed);
  } catch (error) {
    await tellFailure(c, error, c.voice.t('groups.nothing_changed'));
  }
};
