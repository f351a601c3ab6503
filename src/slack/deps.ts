/**
 * Everything listeners need, handed in by app.ts (design example 5: factories, no globals, nothing
 * read from the environment below main.ts).
 */
import type { webApi } from '@slack/bolt';
import type { Directory } from '../accounts/directory.js';
import type { Linking } from '../accounts/linking.js';
import type { ServiceFactory } from '../accounts/service.js';
import type { DigestPreferences } from '../digest/index.js';
import type { ChannelBindings } from '../store/bindings.js';
import type { ExpenseStore } from '../store/expenses.js';
import type { Claims, TokenStore } from '../store/index.js';
import type { UserPreferenceStore } from '../store/preferences.js';
import type { TtlCache } from '../store/ttl-cache.js';
import type { FormDraft } from './expenses/form.js';
import type { ReferenceData } from './expenses/reference.js';
import type { WorkQueue } from './work-queue.js';

export interface SlackDeps {
  tokens: TokenStore;
  linking: Pick<Linking, 'connectUrl'>;
  bindings: ChannelBindings;
  /** Shared across replicas: dedupe of commands and clicks. */
  claims: Claims;
  directory: Directory;
  service: ServiceFactory;
  /** Wait before looking for a create whose outcome is unknown, so a slow service can finish it. */
  reconcileDelayMs: number;
  now(): Date;
  /** Where work after an ack runs (a few at a time, so that acks stay prompt). */
  work: WorkQueue;
  /**
   * Expenses this process booked lately (by id): a reconciliation never takes one of them for the
   * create it is looking for, even when it has the same description and cost.
   */
  booked: TtlCache<true>;
  /** Per-person settings the app keeps (the default group). */
  preferences: UserPreferenceStore;
  /** The daily balance DM's subscriptions (App Home and the DM's Pause button change them). */
  digest: DigestPreferences;
  /** The expense form's drafts and each person's last expense booked from Slack (issue 5). */
  expenses: ExpenseStore<FormDraft>;
  /** The service's currencies and categories for the expense form, cached for an hour. */
  reference: ReferenceData;
  /** The bot's Web API client, for work not tied to a request (updating an undone message). */
  slack: webApi.WebClient;
}

/** How long a dedupe claim lives: longer than any redelivery or double click. */
export const DEDUPE_TTL_MS = 60 * 60_000;
