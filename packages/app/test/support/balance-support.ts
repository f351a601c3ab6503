/**
 * Helpers for the balance, groups, Home and daily-DM tests: commands whose answers land in the
 * fake's channel as messages (so that a later replace_original shows), button clicks on them,
 * and expenses booked straight on the emulator with a person's own token.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { ExpenseShare, ServiceClient } from '../../src/service/index.js';
import type { FakeMessage } from './fake-slack.js';
import { blocksText, type Harness, type LinkedPerson } from './harness.js';

export const CHANNEL = 'C0001';

export function serviceFor(h: Harness, person: LinkedPerson): ServiceClient {
  return h.app.deps.service.forLink({ access_token: person.accessToken });
}

/** `/split <text>` by `user`; resolves with the message its first answer made in the channel. */
export async function ask(
  h: Harness,
  text: string,
  user = 'U0ANN',
  channel = CHANNEL,
): Promise<FakeMessage> {
  const id = randomBytes(8).toString('hex');
  const response_url = h.slack.responseUrl({ id, channel, user });
  const before = h.slack.messages(channel).length;
  const sent = await h.sender.command({ text, user_id: user, channel_id: channel, response_url });
  expect(sent.status).toBe(200);
  const post = await h.slack.waitForResponse((p) => p.id === id, 5_000);
  expect(post.status, JSON.stringify(post.body).slice(0, 500)).toBe(200);
  const added = h.slack.messages(channel).slice(before);
  const message = added.find((m) => m.text === post.body.text) ?? added.at(-1);
  if (!message) throw new Error('no message in the channel');
  return message;
}

export const textOf = (m: { blocks?: unknown; text?: string | undefined }) =>
  `${m.text ?? ''}\n${blocksText(m.blocks)}`;

export interface Element {
  action_id: string;
  value?: string;
  text?: { text: string };
  confirm?: unknown;
  [k: string]: unknown;
}

/** Every interactive element in blocks (accessories and actions blocks), with the block's text. */
export function elements(blocks: unknown): Array<Element & { blockText: string }> {
  const out: Array<Element & { blockText: string }> = [];
  for (const block of (blocks ?? []) as Array<Record<string, unknown>>) {
    const blockText = (block.text as { text?: string } | undefined)?.text ?? '';
    const accessory = block.accessory as Element | undefined;
    if (accessory?.action_id) out.push({ ...accessory, blockText });
    for (const el of (block.elements ?? []) as Element[]) {
      if (el.action_id) out.push({ ...el, blockText });
    }
  }
  return out;
}

export function button(blocks: unknown, action_id: string, rowText?: string): Element {
  const found = elements(blocks).find(
    (e) => e.action_id === action_id && (rowText === undefined || e.blockText.includes(rowText)),
  );
  if (!found) throw new Error(`no ${action_id} button${rowText ? ` on "${rowText}"` : ''}`);
  return found;
}

/** Clicks a button on a message in the channel; resolves with the answer posted for it. */
export async function click(
  h: Harness,
  message: FakeMessage,
  element: Element,
  user = 'U0ANN',
  channel = CHANNEL,
) {
  const id = randomBytes(8).toString('hex');
  const response_url = h.slack.responseUrl({ id, channel, user, ts: message.ts });
  const sent = await h.sender.blockActions({
    user_id: user,
    channel_id: channel,
    actions: { action_id: element.action_id, ...(element.value ? { value: element.value } : {}) },
    message: { ts: message.ts, text: message.text ?? '', blocks: message.blocks ?? [] },
    response_url,
  });
  expect(sent.status).toBe(200);
  return {
    id,
    answer: () => h.slack.waitForResponse((p) => p.id === id, 5_000),
  };
}

/** The message with this ts, as the channel shows it now. */
export function current(h: Harness, message: FakeMessage, channel = CHANNEL): FakeMessage {
  const now = h.slack.messages(channel).find((m) => m.ts === message.ts);
  if (!now) throw new Error('the message is gone');
  return now;
}

/** An expense `payer` paid, shared as given, booked with the payer's own token. */
export async function book(
  h: Harness,
  payer: LinkedPerson,
  input: {
    cost: string;
    currency: string;
    description?: string;
    group_id?: number;
    shares: Array<{ who: LinkedPerson; owed: string }>;
  },
): Promise<number> {
  const users: ExpenseShare[] = input.shares.map((s) => ({
    email: s.who.email,
    first_name: s.who.name.split(' ')[0] ?? s.who.name,
    paid_share: s.who === payer ? input.cost : '0',
    owed_share: s.owed,
  }));
  const result = await serviceFor(h, payer).createExpense({
    description: input.description ?? 'test expense',
    cost: input.cost,
    currency_code: input.currency,
    ...(input.group_id ? { group_id: input.group_id } : {}),
    users,
  });
  expect(result.errors).toEqual({});
  return result.expense?.id ?? 0;
}

/** Payments (expenses marked payment) `person` can see. */
export async function payments(h: Harness, person: LinkedPerson) {
  const all = await serviceFor(h, person).getExpenses({ limit: 0, visible: true });
  return all.filter((e) => e.payment);
}

/** Waits until `check` stops throwing (work after an ack happens a little later). */
export async function eventually(check: () => Promise<void> | void, timeoutMs = 5_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
