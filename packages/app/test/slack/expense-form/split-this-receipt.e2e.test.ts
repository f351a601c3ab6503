/**
 * "Split this" on a message with a file: an image is offered as the receipt (ticked), reaches the
 * expense at the emulator when the form is booked, and the answer links it; a file that is not an
 * image, or an image too large for the service, is refused in the form with the reason.
 */

import { call, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECEIPT_MAX_BYTES } from '../../../src/slack/expense-form/receipt/receipt.js';
import {
  blocksText,
  type Harness,
  type LinkedPerson,
  startHarness,
} from '../../support/harness.js';
import {
  element,
  expenseIdIn,
  formOpened,
  formValues,
  submit,
} from '../../support/modal-support.js';

let h: Harness;
let ann: LinkedPerson;

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
  await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
});
afterAll(() => h?.close());

const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
  Buffer.from('a receipt photo'),
]);

/** Stores a file in the workspace; returns it as a message payload carries it. */
function file(id: string, name: string, mimetype: string, content: Buffer) {
  h.slack.addFile({ id, name, mimetype, content });
  return { id, name, title: name, mimetype, size: content.length };
}

async function splitThis(ts: string, files: unknown[]) {
  const since = h.slack.now();
  await h.sender.messageShortcut({
    message: { text: 'Pizza 30 <@U0BOB>', user: 'U0BOB', ts, files },
  });
  return formOpened(h, since);
}

const values = (extra: Record<string, Record<string, Record<string, unknown>>>) => ({
  ...formValues({
    amount: '30',
    currency: 'EUR',
    description: 'Pizza',
    date: new Date().toISOString().slice(0, 10),
    participants: ['U0ANN', 'U0BOB'],
    payer: 'U0ANN',
  }),
  ...extra,
});

const ticked = (id: string) => ({
  form_message_receipt: {
    form_message_receipt: { type: 'checkboxes', selected_options: [{ value: id }] },
  },
});

async function booked(since: number, ts: string): Promise<{ message: Loose; expense: Loose }> {
  const message = await h.slack.waitForCall(
    'chat.postMessage',
    (c) => c.at >= since && c.args.thread_ts === ts,
    5_000,
  );
  const id = expenseIdIn(message.args.blocks);
  const expense = (await call(h.emu.url, ann.apiKey, 'GET', `get_expense/${id}`)).body.expense;
  return { message, expense };
}

describe('"Split this" on a message with an image', () => {
  it('offers the image, ticked, and attaches it as the receipt; the answer links it', async () => {
    const image = file('F0PIZZA', 'pizza.png', 'image/png', PNG);
    const form = await splitThis('1700000100.000100', [image]);
    const box = element(form.view, 'form_message_receipt');
    expect(box.type).toBe('checkboxes');
    expect(box.initial_options).toEqual([
      expect.objectContaining({
        value: 'F0PIZZA',
        text: expect.objectContaining({ text: 'Attach "pizza.png" from the message' }),
      }),
    ]);
    const since = h.slack.now();
    const ack = await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      values: values(ticked('F0PIZZA')),
    });
    expect(ack).toEqual({ response_action: 'clear' });
    const { message, expense } = await booked(since, '1700000100.000100');
    expect(expense.receipt.original).toMatch(/^http/);
    const stored = await fetch(`${h.emu.url}${new URL(expense.receipt.original).pathname}`, {
      headers: { authorization: `Bearer ${ann.accessToken}` },
    });
    expect(stored.status).toBe(200);
    // What the service keeps is the message's image, byte for byte.
    expect(Buffer.from(await stored.arrayBuffer())).toEqual(PNG);
    expect(JSON.stringify(message.args.blocks)).toContain(`<${expense.receipt.original}|Receipt>`);
  });

  it('books without it when the person unticks it', async () => {
    const image = file('F0PIZZA2', 'pizza.png', 'image/png', PNG);
    const form = await splitThis('1700000101.000100', [image]);
    const since = h.slack.now();
    await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      values: values({
        form_message_receipt: {
          form_message_receipt: { type: 'checkboxes', selected_options: [] },
        },
      }),
    });
    const { message, expense } = await booked(since, '1700000101.000100');
    expect(expense.receipt.original).toBeNull();
    expect(JSON.stringify(message.args.blocks)).not.toContain('|Receipt>');
  });
});

describe('"Split this" on a message whose file cannot be the receipt', () => {
  it('says a file that is not an image cannot be the receipt', async () => {
    const pdf = file('F0MENU', 'menu.pdf', 'application/pdf', Buffer.from('%PDF-1.4'));
    const form = await splitThis('1700000102.000100', [pdf]);
    expect(element(form.view, 'form_message_receipt')).toBeUndefined();
    expect(blocksText(form.view.blocks)).toContain(
      '"menu.pdf" from the message can\'t be the receipt: it is not an image (application/pdf). Choose an image below instead.',
    );
  });

  it('says an image too large for the service cannot be the receipt', async () => {
    const big = {
      id: 'F0HUGE',
      name: 'huge.jpg',
      title: 'huge.jpg',
      mimetype: 'image/jpeg',
      size: RECEIPT_MAX_BYTES + 1,
    };
    const form = await splitThis('1700000103.000100', [big]);
    expect(element(form.view, 'form_message_receipt')).toBeUndefined();
    expect(blocksText(form.view.blocks)).toContain(
      '"huge.jpg" from the message can\'t be the receipt: it is larger than 4.9 MB.',
    );
  });

  it('prefers an image that fits over one that does not', async () => {
    const image = file('F0SMALL', 'small.png', 'image/png', PNG);
    const huge = { id: 'F0HUGE2', name: 'huge.jpg', mimetype: 'image/jpeg', size: 50_000_000 };
    const form = await splitThis('1700000104.000100', [huge, image]);
    expect(element(form.view, 'form_message_receipt').initial_options[0].value).toBe('F0SMALL');
  });
});
