/**
 * The workspace's Block Kit checker over payloads Slack takes and payloads it refuses, each bad
 * one named by the rule it breaks; then the same rules answered where Slack answers them
 * (invalid_blocks for messages, invalid_arguments for views).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blockKitErrors,
  type Surface,
  startWorkspace,
  viewErrors,
  type Workspace,
} from '../src/index.js';
import { callApi, startRawApp } from './raw-app.js';
import { PEOPLE } from './support.js';

type Json = Record<string, unknown>;

const plain = (text: string) => ({ type: 'plain_text', text });
const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });
const option = (text: string, value = text) => ({ text: plain(text), value });
const section = (text: string, extra: Json = {}) => ({
  type: 'section',
  text: mrkdwn(text),
  ...extra,
});
const button = (action_id: string, text: unknown = plain('Go')) => ({
  type: 'button',
  action_id,
  text,
});
const actions = (...elements: unknown[]) => ({ type: 'actions', elements });
const input = (element: Json, extra: Json = {}) => ({
  type: 'input',
  block_id: `in_${String(element.action_id ?? 'x')}`,
  label: plain('Label'),
  element,
  ...extra,
});
const modal = (blocks: unknown[], extra: Json = {}) => ({
  type: 'modal',
  title: plain('Add an expense'),
  submit: plain('Save'),
  close: plain('Cancel'),
  blocks,
  ...extra,
});
const many = <T>(n: number, make: (i: number) => T) => Array.from({ length: n }, (_, i) => make(i));
const people = (extra: Json = {}) => ({
  type: 'multi_users_select',
  action_id: 'people',
  ...extra,
});
const select = (extra: Json = {}) => ({
  type: 'static_select',
  action_id: 'pick',
  options: [option('EUR'), option('USD')],
  ...extra,
});

/** What is checked: blocks on a surface, or a whole view. */
type Payload = { blocks: unknown[]; surface: Surface } | { view: unknown };
const msg = (...blocks: unknown[]): Payload => ({ blocks, surface: 'message' });
const view = (v: unknown): Payload => ({ view: v });

function errorsOf(payload: Payload): string[] {
  return 'view' in payload
    ? viewErrors(payload.view)
    : blockKitErrors(payload.blocks, payload.surface);
}

const GOOD: [string, Payload][] = [
  [
    'a message with the common blocks',
    msg(
      { type: 'header', text: plain('Lunch') },
      section('*Lunch* 24.00', { accessory: button('open', plain('Open')) }),
      { type: 'section', fields: many(10, (i) => mrkdwn(`f${i}`)) },
      { type: 'divider' },
      {
        type: 'context',
        elements: [
          mrkdwn('by Ann'),
          { type: 'image', image_url: 'https://x.test/a.png', alt_text: 'Ann' },
        ],
      },
      actions(
        button('ok', plain('OK')),
        {
          ...button('delete', plain('Delete')),
          style: 'danger',
          confirm: {
            title: plain('Sure?'),
            text: mrkdwn('It goes.'),
            confirm: plain('Delete'),
            deny: plain('Keep'),
          },
        },
        select({ initial_option: option('USD') }),
        { type: 'overflow', action_id: 'more', options: many(5, (i) => option(`o${i}`)) },
        { type: 'datepicker', action_id: 'day', initial_date: '2026-02-28' },
        { type: 'timepicker', action_id: 'time', initial_time: '23:59' },
        { type: 'users_select', action_id: 'who', initial_user: 'U0ANN' },
      ),
      { type: 'markdown', text: '**bold**' },
      { type: 'image', image_url: 'https://x.test/b.png', alt_text: 'bill', title: plain('Bill') },
      { type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [] }] },
    ),
  ],
  [
    'option groups with an initial option from a group',
    msg(
      actions({
        type: 'static_select',
        action_id: 'cat',
        option_groups: [{ label: plain('Food'), options: [option('Lunch'), option('Dinner')] }],
        initial_option: option('Dinner'),
      }),
    ),
  ],
  [
    'checkboxes with mrkdwn options and some of them initially on',
    msg(
      actions({
        type: 'checkboxes',
        action_id: 'c',
        options: [
          { text: mrkdwn('*A*'), value: 'a' },
          { text: mrkdwn('B'), value: 'b' },
        ],
        initial_options: [{ text: mrkdwn('B'), value: 'b' }],
      }),
    ),
  ],
  [
    'a modal with inputs of every kind the app uses',
    view(
      modal([
        input(
          people({ initial_users: ['U0ANN'], max_selected_items: 10, placeholder: plain('Who') }),
        ),
        input(people({ action_id: 'also' }), { optional: true, hint: plain('Others') }),
        input({
          type: 'plain_text_input',
          action_id: 'what',
          min_length: 1,
          max_length: 3000,
          initial_value: 'Lunch',
        }),
        input({
          type: 'number_input',
          action_id: 'n',
          is_decimal_allowed: true,
          initial_value: '1.5',
        }),
        input({
          type: 'radio_buttons',
          action_id: 'r',
          options: [option('a'), option('b')],
          initial_option: option('a'),
        }),
        input({
          type: 'external_select',
          action_id: 'x',
          initial_option: option('Rome trip', '7'),
        }),
        input({ type: 'file_input', action_id: 'f', max_files: 1 }),
        section('Note', { block_id: 'note' }),
      ]),
    ),
  ],
  [
    'a modal with no input needs no submit',
    view(modal([section('Saved.')], { submit: undefined })),
  ],
  ['a Home tab of 100 blocks', view({ type: 'home', blocks: many(100, (i) => section(`${i}`)) })],
  ['50 blocks in a message', msg(...many(50, (i) => section(`${i}`)))],
];

/** Rule, payload, and a piece of the error it gives. */
const BAD: [string, Payload, string][] = [
  [
    'no empty initial_users (a modal)',
    view(modal([input(people({ initial_users: [] }))])),
    'must not be an empty array (leave it out instead) [json-pointer:/view/blocks/0/element/initial_users]',
  ],
  [
    'no empty initial_users (a message)',
    msg(actions(people({ initial_users: [] }))),
    'must not be an empty array (leave it out instead) [json-pointer:/blocks/0/elements/0/initial_users]',
  ],
  ['no empty elements', msg(actions()), '[json-pointer:/blocks/0/elements]'],
  ['no empty fields', msg({ type: 'section', fields: [] }), 'must not be an empty array'],
  [
    'no null initial_option',
    msg(actions(select({ initial_option: null }))),
    'must not be null (leave the field out instead) [json-pointer:/blocks/0/elements/0/initial_option]',
  ],
  ['no null accessory', msg(section('x', { accessory: null })), 'must not be null'],
  ['no null text', msg({ type: 'header', text: null }), 'must not be null'],
  [
    'no null submit',
    view(modal([section('x')], { submit: null })),
    'must not be null (leave it out instead) [json-pointer:/view/submit]',
  ],
  [
    'unique block_id in a message',
    msg(section('a', { block_id: 'b' }), section('b', { block_id: 'b' })),
    'duplicate block_id b [json-pointer:/blocks/1/block_id]',
  ],
  [
    'unique block_id in a view',
    view(modal([section('a', { block_id: 'b' }), input(people(), { block_id: 'b' })])),
    'duplicate block_id b [json-pointer:/view/blocks/1/block_id]',
  ],
  ['unique action_id in a block', msg(actions(button('a'), button('a'))), 'duplicate action_id a'],
  [
    'header text is plain_text',
    msg({ type: 'header', text: mrkdwn('*Lunch*') }),
    'header text must be plain_text [json-pointer:/blocks/0/text/type]',
  ],
  [
    'button text is plain_text',
    msg(actions(button('b', mrkdwn('Go')))),
    'button text must be plain_text',
  ],
  [
    'select option text is plain_text',
    msg(actions(select({ options: [{ text: mrkdwn('EUR'), value: 'EUR' }] }))),
    'option text must be plain_text [json-pointer:/blocks/0/elements/0/options/0/text/type]',
  ],
  [
    'overflow option text is plain_text',
    msg(
      actions({ type: 'overflow', action_id: 'o', options: [{ text: mrkdwn('a'), value: 'a' }] }),
    ),
    'option text must be plain_text',
  ],
  [
    'input label is plain_text',
    view(modal([input(people(), { label: mrkdwn('Who') })])),
    'input label must be plain_text',
  ],
  [
    'input hint is plain_text',
    view(modal([input(people(), { hint: mrkdwn('Who') })])),
    'input hint must be plain_text',
  ],
  [
    'placeholder is plain_text',
    msg(actions(select({ placeholder: mrkdwn('Pick') }))),
    'placeholder must be plain_text',
  ],
  [
    'modal title is plain_text',
    view(modal([], { title: mrkdwn('Add') })),
    'title must be plain_text [json-pointer:/view/title/type]',
  ],
  [
    'modal submit is plain_text',
    view(modal([], { submit: mrkdwn('Save') })),
    'submit must be plain_text',
  ],
  [
    'modal close is plain_text',
    view(modal([], { close: mrkdwn('Cancel') })),
    'close must be plain_text',
  ],
  [
    'confirm title is plain_text',
    msg(
      actions({
        ...button('d'),
        confirm: {
          title: mrkdwn('Sure'),
          text: plain('x'),
          confirm: plain('Yes'),
          deny: plain('No'),
        },
      }),
    ),
    'confirm title must be plain_text',
  ],
  [
    'a text type is plain_text or mrkdwn',
    msg({ type: 'section', text: { type: 'markdown', text: 'x' } }),
    'section text type must be plain_text or mrkdwn',
  ],
  [
    'a text has at least one character',
    msg(section('')),
    'section text must be more than 0 characters',
  ],
  [
    'emoji only on plain_text',
    msg({ type: 'section', text: { ...mrkdwn('x'), emoji: true } }),
    'emoji is only allowed on plain_text',
  ],
  [
    'initial_option is one of the options',
    msg(actions(select({ initial_option: option('GBP') }))),
    'initial_option must be one of the options [json-pointer:/blocks/0/elements/0/initial_option]',
  ],
  [
    'initial_option matches its option\u2019s text too',
    msg(actions(select({ initial_option: { text: plain('Euro'), value: 'EUR' } }))),
    'initial_option must be one of the options',
  ],
  [
    'initial_options are a subset',
    msg(
      actions({
        type: 'checkboxes',
        action_id: 'c',
        options: [option('a')],
        initial_options: [option('a'), option('z')],
      }),
    ),
    'initial_options must all be among the options [json-pointer:/blocks/0/elements/0/initial_options/1]',
  ],
  [
    '51 blocks in a message',
    msg(...many(51, (i) => section(`${i}`))),
    'blocks: no more than 50 items allowed [json-pointer:/blocks]',
  ],
  [
    '101 blocks in a view',
    view(modal(many(101, (i) => section(`${i}`)))),
    'blocks: no more than 100 items allowed [json-pointer:/view/blocks]',
  ],
  [
    'section text up to 3000',
    msg(section('x'.repeat(3001))),
    'section text must be at most 3000 characters',
  ],
  [
    'section fields up to 10',
    msg({ type: 'section', fields: many(11, () => mrkdwn('f')) }),
    'section fields: no more than 10 items allowed',
  ],
  [
    'a section field up to 2000',
    msg({ type: 'section', fields: [mrkdwn('x'.repeat(2001))] }),
    'section field must be at most 2000 characters',
  ],
  [
    'header up to 150',
    msg({ type: 'header', text: plain('x'.repeat(151)) }),
    'header text must be at most 150 characters',
  ],
  [
    'select options up to 100',
    msg(actions(select({ options: many(101, (i) => option(`${i}`)) }))),
    'static_select options: no more than 100 items allowed',
  ],
  [
    'checkboxes up to 10',
    msg(actions({ type: 'checkboxes', action_id: 'c', options: many(11, (i) => option(`${i}`)) })),
    'checkboxes options: no more than 10 items allowed',
  ],
  [
    'overflow up to 5',
    msg(actions({ type: 'overflow', action_id: 'o', options: many(6, (i) => option(`${i}`)) })),
    'overflow options: no more than 5 items allowed',
  ],
  [
    'option text up to 75',
    msg(actions(select({ options: [option('x'.repeat(76), 'x')] }))),
    'option text must be at most 75 characters',
  ],
  [
    'option value up to 150',
    msg(actions(select({ options: [option('x', 'v'.repeat(151))] }))),
    'option value must be at most 150 characters',
  ],
  [
    'an option has a value',
    msg(actions(select({ options: [{ text: plain('x') }] }))),
    'option value is required',
  ],
  [
    'action_id up to 255',
    msg(actions(button('a'.repeat(256)))),
    'action_id must be at most 255 characters',
  ],
  [
    'block_id up to 255',
    msg(section('x', { block_id: 'b'.repeat(256) })),
    'block_id must be at most 255 characters',
  ],
  [
    'placeholder up to 150',
    msg(actions(select({ placeholder: plain('x'.repeat(151)) }))),
    'placeholder must be at most 150 characters',
  ],
  [
    'button text up to 75',
    msg(actions(button('b', plain('x'.repeat(76))))),
    'button text must be at most 75 characters',
  ],
  [
    'confirm buttons up to 30',
    msg(
      actions({
        ...button('d'),
        confirm: {
          title: plain('Sure'),
          text: plain('x'),
          confirm: plain('x'.repeat(31)),
          deny: plain('No'),
        },
      }),
    ),
    'confirm button must be at most 30 characters',
  ],
  [
    'actions up to 25 elements',
    msg(actions(...many(26, (i) => button(`b${i}`)))),
    'actions elements: no more than 25 items allowed',
  ],
  [
    'context up to 10 elements',
    msg({ type: 'context', elements: many(11, () => mrkdwn('c')) }),
    'context elements: no more than 10 items allowed',
  ],
  [
    'markdown blocks up to 12000 in all',
    msg({ type: 'markdown', text: 'x'.repeat(7000) }, { type: 'markdown', text: 'x'.repeat(5001) }),
    'markdown blocks must be at most 12000 characters in all [json-pointer:/blocks/1/text]',
  ],
  [
    'modal title up to 24',
    view(modal([], { title: plain('x'.repeat(25)) })),
    'title must be at most 24 characters',
  ],
  [
    'a modal has a title',
    view(modal([], { title: undefined })),
    'title is required [json-pointer:/view/title]',
  ],
  [
    'submit with input blocks',
    view(modal([input(people())], { submit: undefined })),
    'a view with input blocks requires submit',
  ],
  ['a view has blocks', view({ type: 'modal', title: plain('x') }), 'view requires blocks'],
  [
    'an input has a label',
    view(modal([{ type: 'input', element: people() }])),
    'input label is required',
  ],
  ['no input block in a message', msg(input(people())), 'input blocks are only allowed in views'],
  [
    'file_input only in a modal',
    view({ type: 'home', blocks: [input({ type: 'file_input', action_id: 'f' })] }),
    'file_input is only allowed in modals',
  ],
  [
    'plain_text_input only in an input block',
    msg(actions({ type: 'plain_text_input', action_id: 't' })),
    'plain_text_input is only allowed in an input block',
  ],
  [
    'no button in an input block',
    view(modal([input(button('b'))])),
    'button is not allowed in an input block',
  ],
  ['a known block type', msg({ type: 'sektion', text: mrkdwn('x') }), 'unknown block type sektion'],
  [
    'a known element type',
    msg(actions({ type: 'buton', action_id: 'b' })),
    'unknown element type buton',
  ],
  [
    'a select has options or option_groups',
    msg(actions({ type: 'static_select', action_id: 's' })),
    'static_select needs either options or option_groups, not both',
  ],
  [
    'a date as YYYY-MM-DD',
    msg(actions({ type: 'datepicker', action_id: 'd', initial_date: '2026-02-30' })),
    'initial_date must be a date as YYYY-MM-DD',
  ],
  [
    'a time as HH:mm',
    msg(actions({ type: 'timepicker', action_id: 't', initial_time: '24:00' })),
    'initial_time must be a time as HH:mm',
  ],
  [
    'max_selected_items at least 1',
    view(modal([input(people({ max_selected_items: 0 }))])),
    'max_selected_items must be a whole number of at least 1',
  ],
  [
    'number_input says whether decimals go',
    view(modal([input({ type: 'number_input', action_id: 'n' })])),
    'number_input requires is_decimal_allowed',
  ],
  [
    'an image has alt_text',
    msg({ type: 'image', image_url: 'https://x.test/a.png' }),
    'image requires alt_text',
  ],
  [
    'a button style is primary or danger',
    msg(actions({ ...button('b'), style: 'secondary' })),
    'style must be primary or danger',
  ],
];

describe('the Block Kit checker', () => {
  it.each(GOOD)('takes %s', (_, payload) => {
    expect(errorsOf(payload)).toEqual([]);
  });

  it.each(BAD)('refuses what breaks the rule: %s', (_, payload, error) => {
    const errors = errorsOf(payload);
    expect(errors.join('\n')).toContain(error);
    expect(errors.every((e) => /^\[ERROR\] .+ \[json-pointer:\/[^\]]*\]$/.test(e))).toBe(true);
  });
});

describe('the rules where Slack applies them', () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await startWorkspace();
    for (const person of PEOPLE) ws.addUser(person);
  });
  afterAll(() => ws.close());
  const api = (method: string, args: Json) => callApi(ws.apiUrl, ws.team.botToken, method, args);
  const empty = [input(people({ initial_users: [] }))];

  it('answers invalid_arguments to a view and invalid_blocks to a message', async () => {
    const opened = await api('views.open', {
      trigger_id: ws.issueTrigger(),
      view: modal([input(people())]),
    });
    expect(opened.ok).toBe(true);
    const id = (opened.view as { id: string }).id;
    const updated = await api('views.update', { view_id: id, view: modal(empty) });
    expect(updated).toMatchObject({ ok: false, error: 'invalid_arguments' });
    expect((updated.response_metadata as { messages: string[] }).messages).toEqual([
      '[ERROR] must not be an empty array (leave it out instead) [json-pointer:/view/blocks/0/element/initial_users]',
    ]);
    const published = await api('views.publish', {
      user_id: 'U0ANN',
      view: { type: 'home', blocks: [section('')] },
    });
    expect(published).toMatchObject({ ok: false, error: 'invalid_arguments' });

    for (const method of ['chat.postMessage', 'chat.postEphemeral']) {
      const posted = await api(method, {
        channel: 'C0001',
        user: 'U0ANN',
        text: 'x',
        blocks: [actions(people({ initial_users: [] }))],
      });
      expect(posted, method).toMatchObject({ ok: false, error: 'invalid_blocks' });
    }
    const reply = await fetch(ws.responseUrl({ channel: 'C0001', user: 'U0ANN' }), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'x', blocks: [{ type: 'header', text: mrkdwn('*x*') }] }),
    });
    expect(await reply.json()).toMatchObject({ ok: false, error: 'invalid_blocks' });
  });

  it('shows nothing of an options answer Slack would refuse, and says so', async () => {
    const app = await startRawApp();
    try {
      ws.connectApp({ appUrl: app.url, signingSecret: 'block-kit-secret' });
      const posted = await api('chat.postMessage', {
        channel: 'C0001',
        text: 'pick',
        blocks: [actions({ type: 'external_select', action_id: 'group' })],
      });
      const container = { type: 'message' as const, channel: 'C0001', ts: posted.ts as string };
      const ask = () =>
        ws.act.options({ as: 'U0ANN', container, action_id: 'group', block_id: 'b', value: 'ro' });
      app.answer = () => ({ json: { options: [option('Rome trip', '7')] } });
      expect(await ask()).toEqual({ options: [option('Rome trip', '7')] });
      app.answer = () => ({ json: { options: [] } });
      expect(await ask()).toEqual({ options: [] });
      app.answer = () => ({ json: { options: [{ text: mrkdwn('*Rome*'), value: '7' }] } });
      expect(await ask()).toEqual({ options: [] });
      expect(ws.notices('U0ANN').at(-1)?.text).toContain('"invalid_options"');
    } finally {
      await app.close();
    }
  });
});
