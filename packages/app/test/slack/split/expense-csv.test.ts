/** The CSV of /split export and the list buttons' value, by value. */
import { describe, expect, it } from 'vitest';
import type { Expense } from '../../../src/service/index.js';
import { csvCell, csvHeaders, expensesCsv } from '../../../src/slack/split/expense-csv.js';
import { encodeListRef, parseListRef } from '../../../src/slack/split/list-ref.js';
import { voiceFor } from '../../../src/voice/index.js';

const en = await voiceFor({ locale: 'en-US' });

function expense(over: Partial<Expense>): Expense {
  return {
    id: 1,
    group_id: null,
    description: 'Lunch',
    payment: false,
    cost: '10.0',
    currency_code: 'EUR',
    repayments: [],
    date: '2026-11-20T12:00:00Z',
    created_at: '2026-11-20T12:00:00Z',
    updated_at: '2026-11-20T12:00:00Z',
    category: { id: 18, name: 'General' },
    users: [],
    ...over,
  };
}

const user = (id: number, first_name: string, paid: string, owed: string) => ({
  user_id: id,
  user: { id, first_name },
  paid_share: paid,
  owed_share: owed,
  net_balance: '0',
});

describe('csvCell', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=1+1', "'=1+1"],
    ['+33 6', "'+33 6"],
    ['-2', "'-2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['=HYPERLINK("x","y")', `"'=HYPERLINK(""x"",""y"")"`],
  ])('%j -> %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });
});

describe('expensesCsv', () => {
  it('has a column per person, amounts in the minor unit, CRLF line ends', () => {
    const csv = expensesCsv(
      [
        expense({
          id: 2,
          cost: '3000',
          currency_code: 'JPY',
          group_id: 7,
          users: [user(1, 'Ann', '3000.0', '1000.0'), user(3, 'Ann', '0.0', '2000.0')],
        }),
        expense({
          users: [user(1, 'Ann', '6.0', '3.34'), user(2, 'Bob', '4.0', '6.66')],
        }),
      ],
      new Map([[7, 'Trip, Rome']]),
      csvHeaders(en),
    );
    expect(csv.split('\r\n')).toEqual([
      'Date,Description,Category,Currency,Cost,Paid by,Ann (#1) owes,Ann (#3) owes,Bob owes,Group',
      '2026-11-20,Lunch,General,JPY,3000,Ann,1000,2000,,"Trip, Rome"',
      '2026-11-20,Lunch,General,EUR,10.00,Ann 6.00; Bob 4.00,3.34,,6.66,',
      '',
    ]);
  });
});

describe('expensesCsv for a reader of another language', () => {
  const rows = [
    expense({
      cost: '1234.5',
      group_id: 9,
      users: [user(1, '=Ann', '1234.5', '617.25'), user(2, 'Bob, Jr', '0', '617.25')],
    }),
  ];

  it('writes the headers in German, and the values as a spreadsheet reads them', async () => {
    const de = await voiceFor({ locale: 'de-DE', tz: 'Europe/Berlin' });
    const [header, row] = expensesCsv(rows, new Map(), csvHeaders(de)).split('\r\n');
    expect(header).toBe(
      `Datum,Beschreibung,Kategorie,Währung,Betrag,Bezahlt von,'=Ann schuldet,"Bob, Jr schuldet",Gruppe`,
    );
    // Plain decimals with a point, ISO dates and codes: no "1.234,50" for a German reader.
    expect(row).toBe("2026-11-20,Lunch,General,EUR,1234.50,'=Ann,617.25,617.25,Gruppe #9");
  });

  it('writes the headers in Japanese', async () => {
    const ja = await voiceFor({ locale: 'ja-JP', tz: 'Asia/Tokyo' });
    const [header] = expensesCsv(rows, new Map(), csvHeaders(ja)).split('\r\n');
    expect(header).toBe(
      `日付,内容,カテゴリ,通貨,金額,支払った人,'=Annの負担分,"Bob, Jrの負担分",グループ`,
    );
  });

  it('names whoever the service names not in the reader’s words', async () => {
    const de = await voiceFor({ locale: 'de-DE', tz: 'Europe/Berlin' });
    const nameless = [
      expense({ users: [user(1, '', '40.0', '20.0'), user(2, 'Bob', '0', '20.0')] }),
    ];
    const [header, row] = expensesCsv(nameless, new Map(), csvHeaders(de)).split('\r\n');
    expect(header).toContain(',Jemand schuldet,Bob schuldet,');
    expect(row).toContain(',Jemand,');
  });
});

describe('the list buttons’ value', () => {
  const query = {
    group: { id: 7, name: 'Roommates' },
    people: [12, 13],
    mentions: ['U0ANN', 'U0BOB'],
    range: { from: '2026-10-01', to: null },
    words: ['taxi', 'to the airport'],
  };

  it('reads back what it wrote', () => {
    const value = encodeListRef({ query, starts: [0, 21, 40] });
    expect(parseListRef(value)).toEqual({ query, starts: [0, 21, 40] });
  });

  it.each([
    ['not json', 'x'],
    ['no starts', '{}'],
    ['starts not numbers', '{"s":"a,b"}'],
    ['a group id without its name', '{"s":"0","g":7}'],
    ['a bad date', '{"s":"0","f":"yesterday"}'],
    ['a bad mention', '{"s":"0","m":"<@U1>"}'],
  ])('refuses %s', (_, value) => {
    expect(parseListRef(value)).toBeUndefined();
  });

  it('is left out when it would pass Slack’s 2000 characters', () => {
    const many = { ...query, mentions: Array.from({ length: 200 }, (_, i) => `U${i}AAAAAAAA`) };
    expect(encodeListRef({ query: many, starts: [0] })).toBeUndefined();
  });
});
