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
import { findGroup, peopleFor } from './commands.js';
import { groupError, groupName, groupNotice, typed } from './views.js';

/** The group named, else the channel's or the caller's default group; undefined once told. */
async function groupOf(
  c: SplitContext<'group_default'>,
  voice: Voice,
  client: ServiceClient,
): Promise<Group | undefined> {
  if (c.parsed.group !== null) return findGroup(c, client, c.parsed.group, DEFAULT_EXAMPLE);
  const binding = c.binding;
  if (!binding) {
    await c.reply.ephemeral(groupError(voice, voice.t('groups.which_group'), DEFAULT_EXAMPLE));
    return undefined;
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
  }
  return found;
}

export const groupDefault: SplitHandler<'group_default'> = async (c) => {
  const link = await linked(c);
  if (!link) return;
  const { client, record } = link;
  const voice = c.voice;
  try {
    const group = await groupOf(c, voice, client);
    if (!group) return;
    const key = { team_id: c.user.team_id, group_id: group.id };
    const name = groupName(group.name);
    const parsed = c.parsed;
    if (parsed.action === 'show') {
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
      return;
    }
    if (parsed.action === 'clear') {
      const [hadSplit, hadCurrency] = await Promise.all([
        c.deps.splitDefaults.delete(key),
        c.deps.splitDefaults.deleteCurrency(key),
      ]);
      const had = hadSplit || hadCurrency;
      await (had
        ? c.reply.inChannel(
            groupNotice(
              voice.t('groups.default_cleared', { person: mention(c.inv.user_id), group: name }),
              voice.t('groups.default_cleared_detail'),
            ),
          )
        : c.reply.ephemeral(
            groupNotice(voice.t('groups.default_nothing_to_clear', { group: name })),
          ));
      return;
    }
    const saveCurrency = async (currency: string) => {
      const { said, detail } = await saveGroupCurrency({
        voice,
        splitDefaults: c.deps.splitDefaults,
        group: { ...key, name: group.name },
        currency,
        by: c.inv.user_id,
        at: c.deps.now(),
      });
      await c.reply.inChannel(groupNotice(said, detail));
    };
    if (parsed.action === 'currency') return saveCurrency(parsed.currency);
    const split = parsed.split;
    const values =
      split.kind === 'percent'
        ? split.percents.map((p) => ({ id: p.id, value: p.basisPoints }))
        : split.shares.map((p) => ({ id: p.id, value: p.shares }));
    const ids = values.map((v) => (v.id === ME ? c.inv.user_id : v.id));
    const refs = await peopleFor(c, client, record.service_user_id, ids);
    if (!refs) return;
    const others = ids.filter((id) => id !== c.inv.user_id);
    const members = new Map(group.members.map((m) => [m.id, m]));
    const parts: DefaultPart[] = [];
    const outside: string[] = [];
    for (const [i, id] of ids.entries()) {
      let serviceId: number | undefined;
      if (id === c.inv.user_id) serviceId = record.service_user_id;
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
    if (outside.length > 0) {
      await c.reply.ephemeral(
        groupError(
          voice,
          voice.t('groups.default_outside', {
            people: voice.list(outside),
            count: outside.length,
            group: name,
          }),
          `/split group add @ann ${group.name}`,
        ),
      );
      return;
    }
    const saved = {
      group_id: group.id,
      group_name: group.name,
      kind: split.kind,
      parts,
      set_by: c.inv.user_id,
      set_at: c.deps.now().toISOString(),
    };
    await c.deps.splitDefaults.set(key, saved);
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
    if (parsed.currency !== null) await saveCurrency(parsed.currency);
  } catch (error) {
    await tellFailure(c, error, voice.t('groups.nothing_changed'));
  }
};
