/**
 * A step's inputs as a workflow handed them over (function_executed's `inputs`): what its builder
 * filled in, fixed or taken from a form, so a claim to check like any other a client sends. Read
 * with no indexing by the values themselves, and capped before anything reads their text.
 */
import type { MessageKey } from '../../voice/index.js';
import { MAX_PEOPLE } from '../kit/limits.js';

/** A Slack user id as Slack writes one (U… or W… on Enterprise Grid). */
const USER_ID = /^[UW][A-Z0-9]{2,20}$/;
const CHANNEL_ID = /^[CGD][A-Z0-9]{2,20}$/;
const CURRENCY = /^[A-Za-z]{3}$/;
/** Longer than any expense's name at the service; a text past it is cut, never read whole. */
export const MAX_DESCRIPTION_CHARS = 200;
/** A group's name, as far as it is ever read. */
const MAX_GROUP_CHARS = 100;
/** Amounts past this are no one's shared expense; their decimal form could also lose digits. */
const MAX_AMOUNT = 1e12;

/** Who ran the workflow, from Slack's interactivity input: Slack fills it, the builder cannot. */
function interactorOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const interactor = (value as { interactor?: unknown }).interactor;
  if (typeof interactor !== 'object' || interactor === null) return undefined;
  const id = (interactor as { id?: unknown }).id;
  return typeof id === 'string' && USER_ID.test(id) ? id : undefined;
}

const field = (inputs: unknown, name: string): unknown =>
  typeof inputs === 'object' && inputs !== null && Object.hasOwn(inputs, name)
    ? (inputs as Record<string, unknown>)[name]
    : undefined;

const text = (value: unknown, max: number): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.slice(0, max).trim() : undefined;

/** The payer named, when it is a user id: whose language every refusal is written in. */
export function payerOf(inputs: unknown): string | undefined {
  const payer = field(inputs, 'payer');
  return typeof payer === 'string' && USER_ID.test(payer) ? payer : undefined;
}

export interface BookInputs {
  payer: string;
  /** The amount as a plain decimal (`40`, `12.5`), never in exponent form. */
  amount: string;
  currency: string | undefined;
  description: string;
  /** Those who share it besides the payer, without repeats. */
  people: string[];
  channel: string | undefined;
  group: string | undefined;
  /** Who ran the workflow, when a person did (not a schedule). */
  runner: string | undefined;
}

export type Refusal = { refused: MessageKey; values?: Record<string, string> };

/**
 * The Book an expense step's inputs, or why they cannot be booked. `payer` is read first: every
 * later refusal is told in the payer's language.
 */
export function readBookInputs(inputs: unknown): BookInputs | Refusal {
  const payer = field(inputs, 'payer');
  if (typeof payer !== 'string' || !USER_ID.test(payer)) {
    return { refused: 'workflows.person_invalid' };
  }
  const amount = amountText(field(inputs, 'amount'));
  if (amount === undefined) return { refused: 'workflows.amount_invalid' };
  const currency = text(field(inputs, 'currency'), 10);
  if (currency !== undefined && !CURRENCY.test(currency)) {
    return { refused: 'workflows.currency_invalid', values: { currency } };
  }
  const listed = field(inputs, 'people') ?? [];
  if (!Array.isArray(listed) || listed.length > MAX_PEOPLE) {
    return { refused: 'workflows.person_invalid' };
  }
  const people: string[] = [];
  for (const person of listed) {
    if (typeof person !== 'string' || !USER_ID.test(person)) {
      return { refused: 'workflows.person_invalid' };
    }
    if (person !== payer && !people.includes(person)) people.push(person);
  }
  if (people.length === 0) return { refused: 'workflows.payer_alone' };
  const channel = field(inputs, 'channel');
  return {
    payer,
    amount,
    currency: currency?.toUpperCase(),
    description: text(field(inputs, 'description'), MAX_DESCRIPTION_CHARS) ?? '',
    people,
    channel: typeof channel === 'string' && CHANNEL_ID.test(channel) ? channel : undefined,
    group: text(field(inputs, 'group'), MAX_GROUP_CHARS),
    runner: interactorOf(field(inputs, 'interactivity')),
  };
}

/**
 * A number input as a plain decimal: a JSON number, or the digits a form hands over as text.
 * Zero, a negative, and anything that is no number are refused.
 */
function amountText(value: unknown): string | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0 || value > MAX_AMOUNT) return undefined;
    const plain = String(value);
    return /^\d+(?:\.\d+)?$/.test(plain) ? plain : undefined;
  }
  if (typeof value === 'string' && value.length <= 20 && /^\d+(?:\.\d+)?$/.test(value.trim())) {
    const plain = value.trim();
    return Number(plain) > 0 && Number(plain) <= MAX_AMOUNT ? plain : undefined;
  }
  return undefined;
}

export interface BalancesInputs {
  user: string;
  channel: string;
  runner: string | undefined;
}

export function readBalancesInputs(inputs: unknown): BalancesInputs | Refusal {
  const user = field(inputs, 'user');
  const channel = field(inputs, 'channel');
  if (
    typeof user !== 'string' ||
    !USER_ID.test(user) ||
    typeof channel !== 'string' ||
    !CHANNEL_ID.test(channel)
  ) {
    return { refused: 'workflows.input_missing' };
  }
  return { user, channel, runner: interactorOf(field(inputs, 'interactivity')) };
}

/** A quoted part of a `/split` is description, whatever words it holds; quotes inside become '. */
const quoted = (value: string) => `"${value.replace(/["“”]/g, "'")}"`;

/**
 * The `/split` the step stands for, written so that the parser reads each input as what it is:
 * the description and the group quoted (never read as a date, a repeat or an amount), the people
 * as mentions. The payer is the one who runs it, and shares it as `/split` has them do.
 */
export function splitText(inputs: BookInputs): string {
  return [
    inputs.amount,
    inputs.currency,
    inputs.description ? quoted(inputs.description) : undefined,
    ...inputs.people.map((id) => `<@${id}>`),
    inputs.group ? `in ${quoted(inputs.group)}` : undefined,
  ]
    .filter((part): part is string => part !== undefined)
    .join(' ');
}
