/**
 * The expense message and its buttons end to end, in each reader's voice and with text as typed:
 * a description full of what Slack reads as markup reads the same in the message, the Edit and
 * Duplicate forms, the Comment form, Details and the Undo text; a German booker's message stays
 * German when a Japanese colleague deletes it, while everything that colleague reads privately is
 * Japanese.
 */

import { call, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mrkdwn } from '../../../src/slack/kit/text.js';
import { blockKitErrors } from '../../support/block-kit-limits.js';
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
import { mrkdwnTexts, plainTexts, seen } from '../../support/typed-text.js';

let h: Harness;
let ann: LinkedPerson;
const nb = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
  await h.link({ slackId: 'U0GRACE', first_name: 'Grace' });
  await h.link({
    slackId: 'U0GRETA',
    first_name: 'Greta',
    locale: 'de-DE',
    tz: 'Europe/Berlin',
    default_currency: 'EUR',
  });
  await h.link({ slackId: 'U0KEN', first_name: 'Ken', locale: 'ja-JP', tz: 'Asia/Tokyo' });
});
afterAll(() => h?.close());

interface Booked {
  id: number;
  blocks: unknown[];
  text: string;
}

async function book(text: string, user_id = 'U0ANN'): Promise<Booked> {
  const out = await h.split(text, { user_id });
  const blocks = out.answer.body.blocks as unknown[];
  expect(blockKitErrors(blocks, 'message')).toEqual([]);
  return { id: expenseIdIn(blocks), blocks, text: out.answer.body.text as string };
}

let seq = 0;
/** Clicks a button of the expense message; the answer is the response_url's first post. */
async function click(action_id: string, b: Booked, user_id: string) {
  seq += 1;
  const id = `${action_id}-${b.id}-${user_id}-${seq}`;
  const since = h.slack.now();
  const response = await h.sender.blockActions({
    user_id,
    actions: { action_id, block_id: 'expense_actions', value: JSON.stringify({ v: 1, e: b.id }) },
    message: { ts: `1700000200.${String(seq).padStart(6, '0')}`, blocks: b.blocks, text: b.text },
    response_url: h.slack.responseUrl({ id }),
  });
  expect(response.status).toBe(200);
  return { since, answer: () => h.slack.waitForResponse((p) => p.id === id) };
}

const header = (blocks: unknown) =>
  ((blocks as Loose[]).find((b) => b.block_id === 'expense_header')?.text.text ?? '') as string;

describe('a description as typed, through every button', () => {
  // What Slack sends for `/split 40 fish & chips <b>bold</b> *star* @Grace`.
  const command = '40 fish &amp; chips &lt;b&gt;bold&lt;/b&gt; *star* <@U0GRACE|grace>';
  const typed = 'fish & chips <b>bold</b> *star*';

  it('reads as typed in the message, Edit, Duplicate, Comment, Details and Undo', async () => {
    const b = await book(command);
    expect(header(b.blocks)).toBe(`${typed} · €40.00`);
    expect(b.text).toContain(mrkdwn(typed));
    expect(seen(b.text)).toContain(typed);
    const e = (await call(h.emu.url, ann.apiKey, 'GET', `get_expense/${b.id}`)).body.expense;
    expect(e.description).toBe(typed);

    const edit = await click('expense_edit', b, 'U0ANN');
    const editForm = await formOpened(h, edit.since);
    expect(element(editForm.view, 'form_description').initial_value).toBe(typed);

    const copy = await click('expense_duplicate', b, 'U0ANN');
    const copyForm = await formOpened(h, copy.since);
    expect(element(copyForm.view, 'form_description').initial_value).toBe(typed);
    const note = mrkdwnTexts(copyForm.view.blocks)[0] as string;
    expect(note).toContain(`"${mrkdwn(typed)}"`);
    expect(seen(note)).toContain(`"${typed}"`);

    const comment = await click('expense_comment', b, 'U0GRACE');
    const opened = await h.slack.waitForCall('views.open', (c) => c.at >= comment.since);
    const on = mrkdwnTexts((opened.args.view as Loose).blocks)[0] as string;
    expect(on).toBe(`On "${mrkdwn(`${typed} · €40.00`)}"`);

    const details = await (await click('expense_details', b, 'U0GRACE')).answer();
    expect(plainTexts(details.body.blocks)[0]).toBe(`${typed} · €40.00`);
    expect(details.body.text).toContain(mrkdwn(typed));

    const undone = await (await click('expense_undo', b, 'U0ANN')).answer();
    expect(undone.body.replace_original).toBe(true);
    expect(undone.body.text).toBe(`Undone by <@U0ANN>: ${mrkdwn(`${typed} · €40.00`)}`);
    const struck = mrkdwnTexts(undone.body.blocks)[0] as string;
    expect(struck).toBe(`~${mrkdwn(`${typed} · €40.00`)}~`);
    for (const text of [...mrkdwnTexts(undone.body.blocks), String(undone.body.text)]) {
      expect(text.replace(/<@U0[A-Z]+>/g, '')).not.toMatch(/[<>]|(^|[^\u200b])\*star/);
    }
  });
});

describe('each reader’s voice', () => {
  it('keeps a German booker’s message German, and answers a Japanese clicker in Japanese', async () => {
    const b = await book('40 Essen <@U0KEN|ken>', 'U0GRETA');
    expect(nb(header(b.blocks))).toBe('Essen · 40,00 €');
    expect(nb(b.text)).toBe('<@U0GRETA> hat 40,00 € für Essen bezahlt: <@U0KEN> schuldet 20,00 €');
    expect(plainTexts(b.blocks)).toEqual(expect.arrayContaining(['Rückgängig', 'Löschen']));

    const details = await (await click('expense_details', b, 'U0KEN')).answer();
    expect(details.body.response_type).toBe('ephemeral');
    expect(blocksText(details.body.blocks)).toContain('*金額*\n€40.00');

    const refused = await (await click('expense_undo', b, 'U0KEN')).answer();
    expect(refused.body.response_type).toBe('ephemeral');
    expect(blocksText(refused.body.blocks)).toContain(
      'この経費を取り消せるのは登録した人だけです。',
    );

    // Ken deletes it: the channel's message stays in Greta's words, amounts and dates.
    const deleted = await (await click('expense_delete', b, 'U0KEN')).answer();
    expect(deleted.body.replace_original).toBe(true);
    expect(nb(String(deleted.body.text))).toBe('Gelöscht von <@U0KEN>: Essen · 40,00 €');
    expect(plainTexts(deleted.body.blocks)).toContain('Wiederherstellen');

    const restored = await (
      await click('expense_restore', { ...b, blocks: deleted.body.blocks as unknown[] }, 'U0KEN')
    ).answer();
    expect(nb(header(restored.body.blocks))).toBe('Essen · 40,00 €');
    expect(blocksText(restored.body.blocks)).toContain('Gebucht von <@U0GRETA>');
  });

  it('opens the Edit form in German, reads a German amount, and answers in German', async () => {
    const b = await book('40 Miete <@U0ANN|ann>', 'U0GRETA');
    const edit = await click('expense_edit', b, 'U0GRETA');
    const form = await formOpened(h, edit.since);
    expect(form.view.title.text).toBe('Ausgabe bearbeiten');
    expect(element(form.view, 'form_amount').initial_value).toBe('40,00');
    const fields = {
      currency: 'EUR',
      description: 'Miete',
      date: element(form.view, 'form_date').initial_date,
      participants: ['U0GRETA', 'U0ANN'],
      payer: 'U0GRETA',
      group: '0',
    };
    const bad = await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      user_id: 'U0GRETA',
      values: formValues({ ...fields, amount: 'viel' }),
    });
    expect(bad).toEqual({
      response_action: 'errors',
      errors: {
        form_amount:
          'Ich kann „viel“ nicht als Betrag lesen: gib eine Zahl ein, zum Beispiel 12,50.',
      },
    });
    const since = h.slack.now();
    const done = await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      user_id: 'U0GRETA',
      values: formValues({ ...fields, amount: '1.040,50' }),
    });
    expect(done).toEqual({ response_action: 'clear' });
    await h.app.deps.work.idle();
    const e = (await call(h.emu.url, ann.apiKey, 'GET', `get_expense/${b.id}`)).body.expense;
    expect(e.cost).toBe('1040.5');
    const told = await h.slack.waitForCall(
      'chat.postEphemeral',
      (c) => c.at >= since && c.args.user === 'U0GRETA',
    );
    // The message clicked on was made up for the test, so Slack can't update it: said too.
    expect(seen(nb(String(told.args.text)))).toBe(
      '„Miete“ gespeichert: geändert hast du den Betrag und die Aufteilung. Ich konnte die Nachricht im Channel nicht aktualisieren (Slack meldete message_not_found), daher zeigt sie noch die alte Version; Details darin zeigt die Ausgabe, wie sie jetzt ist.',
    );
  });
});
