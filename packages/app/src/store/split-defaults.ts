/**
 * A group's defaults: its split (`/split group default Roommates me 60% @ann 40%`), used when a
 * `/split` into that group names nobody, and its currency (`/split group default Roommates EUR`),
 * used when a `/split` into it names none. Kept per workspace and group, so that a channel bound
 * to the group and `in Roommates` anywhere in the workspace use the same ones. Each person of a
 * split is kept with their service user id as well, so that a person who has left the group since
 * is noticed without a service call.
 */
import type Keyv from 'keyv';

export interface GroupKey {
  team_id: string;
  group_id: number;
}

export interface DefaultPart {
  slack_id: string;
  service_user_id: number;
  /** Basis points for a percent default, a whole number of shares for a shares default. */
  value: number;
}

export interface SplitDefault {
  group_id: number;
  group_name: string;
  kind: 'percent' | 'shares';
  parts: DefaultPart[];
  /** Slack user id of whoever saved it. */
  set_by: string;
  /** ISO 8601. */
  set_at: string;
}

/** The currency a `/split` into the group is in when it names none. */
export interface GroupCurrency {
  group_id: number;
  group_name: string;
  /** ISO 4217 code, upper case. */
  currency: string;
  /** Slack user id of whoever saved it. */
  set_by: string;
  /** ISO 8601. */
  set_at: string;
}

export interface SplitDefaults {
  get(group: GroupKey): Promise<SplitDefault | undefined>;
  set(group: GroupKey, value: SplitDefault): Promise<void>;
  /** True when there was one. */
  delete(group: GroupKey): Promise<boolean>;
  currency(group: GroupKey): Promise<GroupCurrency | undefined>;
  setCurrency(group: GroupKey, value: GroupCurrency): Promise<void>;
  /** True when there was one. */
  deleteCurrency(group: GroupKey): Promise<boolean>;
}

export function splitDefaultKey(group: GroupKey): string {
  return `${group.team_id}:${group.group_id}`;
}

/** Under the workspace's prefix too, so that forgetting a workspace removes it with the rest. */
export function groupCurrencyKey(group: GroupKey): string {
  return `${group.team_id}:${group.group_id}:currency`;
}

export function createSplitDefaults(keyv: Keyv): SplitDefaults {
  return {
    async get(group) {
      return (await keyv.get(splitDefaultKey(group))) as SplitDefault | undefined;
    },
    async set(group, value) {
      await keyv.set(splitDefaultKey(group), value);
    },
    delete: (group) => keyv.delete(splitDefaultKey(group)),
    async currency(group) {
      return (await keyv.get(groupCurrencyKey(group))) as GroupCurrency | undefined;
    },
    async setCurrency(group, value) {
      await keyv.set(groupCurrencyKey(group), value);
    },
    deleteCurrency: (group) => keyv.delete(groupCurrencyKey(group)),
  };
}
