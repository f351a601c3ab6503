/**
 * `/split` typed in German, French, Spanish and Brazilian Portuguese, end to end: a signed command
 * from a person whose Slack locale and time zone say so, booked at the emulator, read back. Each
 * word of the person's language is read: the expense is on yesterday in their time zone, or
 * repeats monthly, and its description holds none of the words. "Split this" on a German message
 * fills the form the same way.
 */
import { call, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import { type Harness, type LinkedPerson, startHarness } from '../../support/harness.js';
import { element, formOpened } from '../../support/modal-support.js';

let h: Harness;
const people = new Map<string, LinkedPerson>();

/** Who types, in which locale and zone: zones far apart, so that "yesterday" is theirs. */
const READERS = {
  de: { slackId: 'U0GRETA', first_name: 'Greta', locale: 'de-DE', tz: 'Europe/Berlin' },
  fr: { slackId: 'U0FLORE', first_name: 'Flore', locale: 'fr-FR', tz: 'Pacific/Tahiti' },
  es: { slackId: 'U0SOFIA', first_name: 'Sofía', locale: 'es-ES', tz: 'Europe/Madrid' },
  pt: { slackId: 'U0JOAO', first_name: 'João', locale: 'pt-BR', tz: 'Pacific/Kiritimati' },
} as const;

beforeAll(async () => {
  h = await startHarness();
  await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
  for (const reader of Object.values(READERS)) {
    people.set(reader.slackId, await h.link({ ...reader, default_currency: 'EUR' }));
  }
});
afterAll(() => h?.close());

/** The day in `tz` at `at`, yyyy-MM-dd. */
function dayIn(tz: string, at: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(at);
}

/** The day before `day`, yyyy-MM-dd. */
function dayBefore(day: string): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}

/** Books `text` as `reader`, and reads the expense back as the service keeps it. */
async function booked(reader: (typeof READERS)[keyof typeof READERS], text: string) {
  const before = Date.now();
  // The first command of a run warms the app; on a busy machine it takes longer than 5 s.
  const out = await h.split(text, { user_id: reader.slackId, timeoutMs: 20_000 });
  const after = Date.now();
  const body = out.answer.body as Loose;
  expect(body.response_type, JSON.stringify(body)).toBe('in_channel');
  expect(blockKitErrors(body.blocks, 'message')).toEqual([]);
  const match = /"value":"\{\\"v\\":1,\\"e\\":(\d+)\}"/.exec(JSON.stringify(body.blocks));
  if (!match) throw new Error('no Undo button');
  const person = people.get(reader.slackId)!;
  const reply = await call(h.emu.url, person.apiKey, 'GET', `get_expense/${match[1]}`);
  expect(reply.status).toBe(200);
  const expense = reply.body.expense as Loose;
  return {
    expense,
    /** The expense's day, in the reader's zone. */
    day: dayIn(reader.tz, Date.parse(expense.date)),
    /** Today in the reader's zone, as it was when the command was sent (or answered). */
    todays: [dayIn(reader.tz, before), dayIn(reader.tz, after)],
  };
}

describe('the eight commands of a German, French, Spanish and Brazilian reader', () => {
  const rows = [
    ['de', 'gestern', 'yesterday'],
    ['de', 'monatlich', 'monthly'],
    ['fr', 'hier', 'yesterday'],
    ['fr', 'mensuel', 'monthly'],
    ['es', 'ayer', 'yesterday'],
    ['es', 'mensual', 'monthly'],
    ['pt', 'ontem', 'yesterday'],
    ['pt', 'mensal', 'monthly'],
  ] as const;
  for (const [language, word, meaning] of rows) {
    const reader = READERS[language];
    it(`/split 40 Mittagessen @ann ${word} (${reader.locale}, ${reader.tz})`, async () => {
      const { expense, day, todays } = await booked(reader, `40 Mittagessen <@U0ANN> ${word}`);
      expect(expense.description).toBe('Mittagessen');
      expect(expense.cost).toBe('40.0');
      if (meaning === 'yesterday') {
        expect(todays.map(dayBefore)).toContain(day);
        expect(expense.repeat_interval).toBeNull();
      } else {
        expect(todays).toContain(day);
        expect(expense.repeat_interval).toBe('monthly');
      }
    });
  }

  it('leaves a word of another language in the description: hier is "here" in German', async () => {
    const { expense, day, todays } = await booked(READERS.de, '40 Mittagessen <@U0ANN> hier');
    expect(expense.description).toBe('Mittagessen hier');
    expect(todays).toContain(day);
  });

  it('books "bezahlt von mir 40 @ann" as paid by the reader, once refused with "Who paid?"', async () => {
    const { expense } = await booked(READERS.de, 'Mittagessen bezahlt von mir 40 <@U0ANN>');
    const greta = people.get(READERS.de.slackId)!;
    const paid = expense.users.find((u: Loose) => u.user_id === greta.serviceId);
    expect(paid.paid_share).toBe('40.0');
    expect(expense.description).toBe('Mittagessen');
  });
});

describe('"Split this" in the reader’s language', () => {
  it('fills the form’s day and repeat from a German message, and leaves them out of its description', async () => {
    const reader = READERS.de;
    const since = h.slack.now();
    const before = Date.now();
    await h.sender.messageShortcut({
      user_id: reader.slackId,
      message: { text: 'Mittagessen 40 gestern <@U0ANN>', user: 'U0ANN', ts: '1700000002.000100' },
    });
    const form = await formOpened(h, since);
    expect(element(form.view, 'form_amount').initial_value).toBe('40,00');
    expect(element(form.view, 'form_date').initial_date).toBe(dayBefore(dayIn(reader.tz, before)));
    expect(element(form.view, 'form_description').initial_value).toBe('Mittagessen ann');
    expect(element(form.view, 'form_repeat').initial_option.value).toBe('never');

    const monthly = h.slack.now();
    await h.sender.messageShortcut({
      user_id: reader.slackId,
      message: { text: 'Miete 900 monatlich', user: 'U0ANN', ts: '1700000002.000200' },
    });
    const rent = await formOpened(h, monthly);
    expect(element(rent.view, 'form_repeat').initial_option.value).toBe('monthly');
    expect(element(rent.view, 'form_description').initial_value).toBe('Miete');
  });

  it('takes a French reader’s hier out as a whole word, leaving Thierry whole', async () => {
    const reader = READERS.fr;
    const since = h.slack.now();
    const before = Date.now();
    await h.sender.messageShortcut({
      user_id: reader.slackId,
      message: { text: 'Pot de Thierry 40 hier', user: 'U0ANN', ts: '1700000002.000300' },
    });
    const form = await formOpened(h, since);
    expect(element(form.view, 'form_date').initial_date).toBe(dayBefore(dayIn(reader.tz, before)));
    expect(element(form.view, 'form_description').initial_value).toBe('Pot de Thierry');
  });
});
