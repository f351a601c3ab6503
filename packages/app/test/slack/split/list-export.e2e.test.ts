/**
 * `/split list` paged with its buttons and searched by words, and `/split export`: the CSV file in
 * the person's DM, read back cell by cell against what the emulator holds.
 */

import { call, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import {
  blocksText,
  type Harness,
  type LinkedPerson,
  startHarness,
} from '../../support/harness.js';

let h: Harness;
let ann: LinkedPerson;
let bob: LinkedPerson;
let cho: LinkedPerson;
let groupId: number;

/** An expense Ann paid, shared by `owed` (service id -> decimal owed share). */
async function book(input: {
  cost: string;
  description: string;
  date: string;
  owed: Array<[number, string]>;
  group_id?: number;
}) {
  const params: Record<string, string | number> = {
    cost: input.cost,
    description: input.description,
    date: `${input.date}T12:00:00Z`,
    currency_code: 'EUR',
    ...(input.group_id ? { group_id: input.group_id } : {}),
  };
  input.owed.forEach(([id, share], i) => {
    params[`users__${i}__user_id`] = id;
    params[`users__${i}__paid_share`] = id === ann.serviceId ? input.cost : '0';
    params[`users__${i}__owed_share`] = share;
  });
  const out = await call(h.emu.url, ann.apiKey, 'POST', 'create_expense', params);
  expect(out.body.errors).toEqual({});
}

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
  cho = await h.link({ slackId: 'U0CHO', first_name: 'Cho' });
  const group = await call(h.emu.url, ann.apiKey, 'POST', 'create_group', {
    name: 'Roommates',
    users__0__email: bob.email,
    users__0__first_name: 'Bob',
    users__1__email: cho.email,
    users__1__first_name: 'Cho',
  });
  expect(group.body.errors ?? {}).toEqual({});
  groupId = group.body.group.id;
  // 45 lunches, one a day from 2026-09-01, newest last.
  for (let i = 0; i < 45; i++) {
    const day = new Date(Date.UTC(2026, 8, 1 + i)).toISOString().slice(0, 10);
    await book({
      cost: '10.00',
      description: i % 10 === 3 ? `Taxi to the airport ${i}` : `Lunch ${i}`,
      date: day,
      owed: [
        [ann.serviceId, '5.00'],
        [bob.serviceId, '5.00'],
      ],
    });
  }
  await book({
    cost: '10.00',
    description: '=HYPERLINK("http://evil.example","taxi, please")',
    date: '2026-10-12',
    owed: [
      [ann.serviceId, '3.34'],
      [bob.serviceId, '3.33'],
      [cho.serviceId, '3.33'],
    ],
    group_id: groupId,
  });
});
afterAll(() => h?.close());

async function command(text: string) {
  const out = await h.split(text);
  expect(out.answer.body.response_type).toBe('ephemeral');
  const blocks = out.answer.body.blocks as Loose[];
  expect(blockKitErrors(blocks, 'message')).toEqual([]);
  return { blocks, text: blocksText(blocks) };
}

function button(blocks: Loose[], actionId: string): Loose | undefined {
  return blocks
    .filter((b) => b.type === 'actions')
    .flatMap((b) => b.elements)
    .find((e: Loose) => e.action_id === actionId);
}

async function click(blocks: Loose[], actionId: string) {
  const element = button(blocks, actionId);
  expect(element, actionId).toBeDefined();
  const id = `${actionId}-${Math.random()}`;
  const response = await h.sender.blockActions({
    user_id: 'U0ANN',
    actions: { action_id: actionId, block_id: 'list_actions', value: element.value },
    message: { ts: '1.000001', text: 'list', blocks },
    response_url: h.slack.responseUrl({ id }),
  });
  expect(response.status).toBe(200);
  return (await h.slack.waitForResponse((p) => p.id === id, 5_000)).body as Loose;
}

/** Descriptions listed, in order. */
function listed(text: string): string[] {
  return [...text.matchAll(/\*([^*]+)\* · /g)].map((m) => m[1]!);
}

describe('/split list pages', () => {
  it('goes to older pages and back with its buttons, replacing the list', async () => {
    const first = await command('list');
    const page1 = listed(first.text);
    expect(page1).toHaveLength(20);
    expect(page1[0]).toBe('Lunch 44');
    expect(button(first.blocks, 'list_previous')).toBeUndefined();

    const second = await click(first.blocks, 'list_next');
    expect(second.replace_original).toBe(true);
    const page2 = listed(blocksText(second.blocks));
    expect(page2).toHaveLength(20);
    expect(page2[0]).toBe('Lunch 25');
    expect(blocksText(second.blocks)).toContain('Page 2');

    const third = await click(second.blocks, 'list_next');
    const page3 = listed(blocksText(third.blocks));
    // 46 expenses, one of them (in Roommates) dated among the others.
    expect(page3).toHaveLength(6);
    expect(button(third.blocks, 'list_next')).toBeUndefined();
    expect(blocksText(third.blocks)).toContain('no older ones');

    const back = await click(third.blocks, 'list_previous');
    expect(listed(blocksText(back.blocks))).toEqual(page2);
    const all = [...page1, ...page2, ...page3];
    expect(new Set(all).size).toBe(46);
  });

  it('finds expenses by words of their description, ignoring case', async () => {
    const { text } = await command('list about TAXI');
    expect(listed(text)).toEqual([
      'Taxi to the airport 43',
      '=HYPERLINK("http://evil.example","taxi, please")',
      'Taxi to the airport 33',
      'Taxi to the airport 23',
      'Taxi to the airport 13',
      'Taxi to the airport 3',
    ]);
    expect(listed((await command('list "to the airport" since 2026-09-20')).text)).toEqual([
      'Taxi to the airport 43',
      'Taxi to the airport 33',
      'Taxi to the airport 23',
    ]);
  });

  it('names every payer of an expense several people paid', async () => {
    await h.split('60 airship ride <@U0BOB> paid by me 40 <@U0BOB> 20 on 2026-10-20');
    const { text } = await command('list about airship');
    expect(listed(text)).toEqual(['airship ride']);
    expect(text).toMatch(/paid by you and Bob/i);
  });

  it('searches the descriptions for words that name no group, and says so', async () => {
    const { text } = await command('list airship');
    expect(text).toContain(
      'None of your groups is called "airship", so I looked for it in the descriptions.',
    );
    expect(listed(text)).toEqual(['airship ride']);
  });

  it('refuses a damaged button value with a clear answer', async () => {
    const id = `damaged-${Math.random()}`;
    await h.sender.blockActions({
      user_id: 'U0ANN',
      actions: { action_id: 'list_next', block_id: 'list_actions', value: '{"s":"x"}' },
      response_url: h.slack.responseUrl({ id }),
    });
    const answer = await h.slack.waitForResponse((p) => p.id === id, 5_000);
    expect(blocksText(answer.body.blocks)).toContain('This button is damaged');
  });
});

/** RFC 4180: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  expect(cell).toBe('');
  return rows;
}

async function exportedCsv(since: number): Promise<{ comment: string; rows: string[][] }> {
  const done = await h.slack.waitForCall(
    'files.completeUploadExternal',
    (c) => c.at >= since,
    5_000,
  );
  const fileId = ((done.response as Loose).files as Loose[])[0].id as string;
  const message = h.slack.messages('U0ANN').find((m) => m.files?.includes(fileId));
  expect(message).toBeDefined();
  const file = await fetch(`${h.slack.origin}/files/${fileId}/download/x.csv`, {
    headers: { authorization: `Bearer ${h.slack.team.botToken}` },
  });
  return { comment: message!.text ?? '', rows: parseCsv(await file.text()) };
}

describe('/split export', () => {
  it('sends the matching expenses as CSV to the DM, each cell as the emulator holds it', async () => {
    const since = h.slack.now();
    const { text } = await command('export about taxi');
    expect(text).toContain('I sent you a CSV file of 6 expenses in our DM.');
    const { comment, rows } = await exportedCsv(since);
    expect(comment).toContain('6 expenses about "taxi"');

    const held = (
      await call(h.emu.url, ann.apiKey, 'GET', 'get_expenses', { visible: true, limit: 0 })
    ).body.expenses.filter((e: Loose) => /taxi/i.test(e.description)) as Loose[];
    const [header, ...body] = rows;
    expect(header).toEqual([
      'Date',
      'Description',
      'Category',
      'Currency',
      'Cost',
      'Paid by',
      'Ann owes',
      'Bob owes',
      'Cho owes',
      'Group',
    ]);
    expect(body).toHaveLength(held.length);
    const minor = (s: string) => Math.round(Number(s) * 100);
    body.forEach((row, i) => {
      const e = held[i]!;
      const owed = (id: number) => e.users.find((u: Loose) => u.user_id === id)?.owed_share;
      const cell = (id: number) => (owed(id) === undefined ? '' : Number(owed(id)).toFixed(2));
      const description = e.description.startsWith('=') ? `'${e.description}` : e.description;
      expect(row).toEqual([
        e.date.slice(0, 10),
        description,
        e.category.name,
        'EUR',
        Number(e.cost).toFixed(2),
        'Ann',
        cell(ann.serviceId),
        cell(bob.serviceId),
        cell(h.slackIdFor('') ? 0 : (e.users[2]?.user_id ?? -1)),
        e.group_id ? 'Roommates' : '',
      ]);
      const shares = row.slice(6, 9).filter((c) => c !== '');
      expect(shares.reduce((sum, c) => sum + minor(c), 0)).toBe(minor(row[4]!));
    });
    // The formula is text: a spreadsheet shows it instead of running it.
    expect(body[1]![1]).toBe(`'=HYPERLINK("http://evil.example","taxi, please")`);
    expect(body[1]!.slice(6, 9)).toEqual(['3.34', '3.33', '3.33']);
  });

  it('exports from the list’s button with the list’s filters', async () => {
    const { blocks } = await command('list in Roommates');
    const since = h.slack.now();
    const answer = await click(blocks, 'list_export');
    expect(blocksText(answer.blocks)).toContain('CSV file of 1 expense in our DM');
    const { rows } = await exportedCsv(since);
    expect(rows).toHaveLength(2);
    expect(rows[1]![9]).toBe('Roommates');
  });

  it('says so when nothing matches, and sends no file', async () => {
    const before = h.slack.callsTo('files.getUploadURLExternal').length;
    const { text } = await command('export about zeppelin');
    expect(text).toContain('nothing to export');
    expect(h.slack.callsTo('files.getUploadURLExternal')).toHaveLength(before);
  });

  it('tells the person when the app may not send files', async () => {
    const scopes = h.slack.team.scopes;
    h.slack.team.scopes = scopes.filter((s) => s !== 'files:write');
    try {
      const { text } = await command('export');
      expect(text).toContain('needs the files:write permission');
    } finally {
      h.slack.team.scopes = scopes;
    }
  });
});
