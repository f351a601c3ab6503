/**
 * The expense form filled in from a group's default split: opened in a channel bound to a group
 * with a default, it starts with the default's people and kind of split (picking the group in the
 * form does the same: group-picked.ts); and whenever the first
 * step is submitted for a group with a default of the chosen kind, the second step starts with
 * the default's values for the people chosen (anyone else is left empty, to share what is left).
 */
import { formatPercent } from '../../core/split.js';
import type { SplitDefault } from '../../store/index.js';
import { leftTheGroup } from '../booking/index.js';
import type { SlackDeps } from '../deps.js';
import type { Voice } from '../shared/voice.js';
import { decimalInput } from './amount.js';
import { defaultPeople, type GroupDefaultFill } from './default-view.js';
import type { CheckedForm, SplitMethod } from './form.js';

export async function savedFor(
  deps: SlackDeps,
  team_id: string,
  group_id: number | null | undefined,
): Promise<SplitDefault | undefined> {
  if (!group_id) return undefined;
  // Only a convenience: without the store, the form opens as it would without a default.
  return deps.splitDefaults.get({ team_id, group_id }).catch(() => undefined);
}

/**
 * Who shares it and how, for a form opened on this group, without anyone `members` shows has left
 * it; undefined without a default.
 */
export async function defaultStart(
  deps: SlackDeps,
  team_id: string,
  group: { id: number; name: string; members?: ReadonlyArray<{ id: number }> } | undefined,
): Promise<{ participants: string[]; method: SplitMethod; fill: GroupDefaultFill } | undefined> {
  const saved = await savedFor(deps, team_id, group?.id);
  if (!saved || !group) return undefined;
  const fill = {
    saved,
    groupName: group.name,
    gone: group.members ? leftTheGroup(saved, group.members) : [],
  };
  return { participants: defaultPeople(fill), method: saved.kind, fill };
}

/** The second step's values from the group's default, by Slack id; undefined when none fit. */
export async function defaultStepValues(
  deps: SlackDeps,
  team_id: string,
  form: CheckedForm,
  voice: Pick<Voice, 'locale'>,
): Promise<Record<string, string> | undefined> {
  const saved = await savedFor(deps, team_id, form.group_id);
  if (!saved || saved.kind !== form.method) return undefined;
  const values: Record<string, string> = Object.create(null);
  let any = false;
  for (const part of saved.parts) {
    if (!form.participants.includes(part.slack_id)) continue;
    values[part.slack_id] =
      saved.kind === 'percent'
        ? decimalInput(formatPercent(part.value).replace('%', ''), voice)
        : String(part.value);
    any = true;
  }
  return any ? values : undefined;
}
