/**
 * Everything listeners need, handed in by the composition root (factories, no globals, nothing
 * read from the environment below main.ts).
 */
import type { Logger, webApi } from '@slack/bolt';
import type { Directory } from '../accounts/directory.js';
import type { Linking } from '../accounts/linking.js';
import type { ServiceFactory } from '../accounts/service.js';
import type { Unlinking } from '../accounts/unlink.js';
import type { ReceiptReader } from '../receipts/index.js';
import type { FetchLike } from '../service/index.js';
import type {
  ChannelBindings,
  ChannelFeeds,
  Claims,
  DigestPreferences,
  ExpenseStore,
  Forget,
  Sealer,
  SlackUserKey,
  SplitDefaults,
  TokenStore,
  UserPreferenceStore,
} from '../store/index.js';
import type { FormDraft } from './expense-form/form.js';
import type { ReferenceData } from './expense-form/reference.js';
import type { SlackMessage } from './kit/message.js';
import type { DurableWork } from './runtime/durable.js';
import type { Reply } from './runtime/reply.js';
import type { TeamClients } from './runtime/team-clients.js';
import type { WorkQueue } from './runtime/work-queue.js';
import type { FileHosts } from './shared/file-hosts.js';
import type { SplitInvocation } from './shared/invocation.js';
import type { Offers } from './shared/offers.js';
import type { Voice } from './shared/voice.js';

/**
 * What one feature offers another, wired by slack/app.ts, so that no feature folder imports
 * another: each can be read, changed or removed on its own.
 */
export interface SlackHooks {
  /** Publishes the person's App Home (home/) again, in their voice, with a notice at the top. */
  publishHome(
    client: webApi.WebClient,
    user: SlackUserKey,
    voice: Voice,
    logger: Logger,
    notice?: string,
  ): Promise<void>;
  /**
   * Carries out a `/split` text for a person as the command would (split/): a workflow's Book an
   * expense step books through it, so that there is one booking path.
   */
  runSplit(inv: SplitInvocation, reply: Reply, logger: Logger): Promise<void>;
  /** A person's balances as `/split balance` shows them (balances/), or why they cannot be. */
  balances(user: SlackUserKey, logger: Logger): Promise<BalancesAnswer>;
}

/** What reading a person's balances gave. */
export type BalancesAnswer =
  | { kind: 'shown'; message: SlackMessage }
  /** No link (or the service no longer takes it: the link is removed). */
  | { kind: 'not_linked' }
  /** The service failed; `text` says so, in the person's voice. */
  | { kind: 'failed'; text: string };

export interface SlackDeps {
  tokens: TokenStore;
  linking: Pick<Linking, 'connectUrl' | 'promptClicked'>;
  bindings: ChannelBindings;
  /** Shared across replicas: dedupe of commands and clicks. */
  claims: Claims;
  directory: Directory;
  service: ServiceFactory;
  /** Wait before looking for a create whose outcome is unknown, and between further looks. */
  reconcileDelayMs: number;
  /**
   * How long after a request was sent the service may still apply it. Until then an unknown
   * outcome is never reported as "not booked".
   */
  settleMs: number;
  now(): Date;
  /** Where work after an ack runs (a few at a time, so that acks stay prompt). */
  work: WorkQueue;
  /** Acknowledged commands and form submissions, kept in the store until they are answered. */
  durable: DurableWork;
  /** Per-person settings the app keeps (the default group). */
  preferences: UserPreferenceStore;
  /** The daily balance DM's subscriptions (App Home and the DM's Pause button change them). */
  digest: DigestPreferences;
  /** Each group's default split (`/split group default`). */
  splitDefaults: SplitDefaults;
  /** Channels that follow their group's activity (`/split feed on`). */
  feeds: ChannelFeeds;
  /** The expense form's drafts and each person's last expense booked from Slack. */
  expenses: ExpenseStore<FormDraft>;
  /** What is kept about a person or a workspace, and removing it. */
  forget: Forget;
  /** Ending a person's link, alone or with everything else kept about them. */
  unlinking: Unlinking;
  /** The service's currencies and categories for the expense form, cached for an hour. */
  reference: ReferenceData;
  /**
   * The bot's Web API client of a team, for work not tied to a request (a queued command,
   * updating an undone message): the team's own installation's token when installed into many.
   */
  slack: TeamClients;
  /** Where a file download may carry the bot token: Slack's file hosts (or its stand-in's). */
  fileHosts: FileHosts;
  /** The app's HTTP client, kept-alive, for posts to a response_url. */
  http: FetchLike;
  /**
   * Signs what a person's Slack client carries back (a button's value, a modal's metadata), so
   * that the app acts only on what it offered, and only for that person.
   */
  offers: Offers;
  /** A Web API client for a token Slack gave for one task (a workflow step's run). */
  webClient(token: string): webApi.WebClient;
  /** Seals secrets kept in the store for later (a step's token in its durable job). */
  sealer: Sealer;
  /** Reads photos of receipts into the expense form; without it, photos are only attached. */
  receipts?: ReceiptReader | undefined;
  hooks: SlackHooks;
}

/** How long a dedupe claim lives: longer than any redelivery or double click. */
export const DEDUPE_TTL_MS = 60 * 60_000;
