/**
 * Every Block Kit object the app writes, one constructor each: views, blocks, elements and text
 * objects are built here and nowhere else (scripts/architecture.ts refuses a Block Kit literal
 * outside slack/kit/). Each constructor takes the object's fields but its `type`, so a view reads
 * as what Slack will show; the short forms below (section, context, header, button, confirm,
 * option) also keep a text within Slack's limits, so a long name is cut rather than refused.
 */
import type { types } from '@slack/bolt';
import { clip, LIMITS, VIEW_LIMITS } from './limits.js';
import { plainText as escapePlain } from './text.js';

type Fields<T> = Omit<T, 'type'>;

// --- views ---------------------------------------------------------------------------------------

export function modalView(fields: Fields<types.ModalView>): types.ModalView {
  return { type: 'modal', ...fields };
}

export function homeView(fields: Fields<types.HomeView>): types.HomeView {
  return { type: 'home', ...fields };
}

// --- blocks --------------------------------------------------------------------------------------

export function sectionBlock(fields: Fields<types.SectionBlock>): types.SectionBlock {
  return { type: 'section', ...fields };
}

export function contextBlock(fields: Fields<types.ContextBlock>): types.ContextBlock {
  return { type: 'context', ...fields };
}

export function headerBlock(fields: Fields<types.HeaderBlock>): types.HeaderBlock {
  return { type: 'header', ...fields };
}

export function dividerBlock(fields: Fields<types.DividerBlock> = {}): types.DividerBlock {
  return { type: 'divider', ...fields };
}

export function actionsBlock(fields: Fields<types.ActionsBlock>): types.ActionsBlock {
  return { type: 'actions', ...fields };
}

export function inputBlock(fields: Fields<types.InputBlock>): types.InputBlock {
  return { type: 'input', ...fields };
}

// --- elements ------------------------------------------------------------------------------------

export function buttonElement(fields: Fields<types.Button>): types.Button {
  return { type: 'button', ...fields };
}

export function staticSelect(fields: Fields<types.StaticSelect>): types.StaticSelect {
  return { type: 'static_select', ...fields };
}

export function externalSelect(fields: Fields<types.ExternalSelect>): types.ExternalSelect {
  return { type: 'external_select', ...fields };
}

export function usersSelect(fields: Fields<types.UsersSelect>): types.UsersSelect {
  return { type: 'users_select', ...fields };
}

export function multiUsersSelect(fields: Fields<types.MultiUsersSelect>): types.MultiUsersSelect {
  return { type: 'multi_users_select', ...fields };
}

export function radioButtons(fields: Fields<types.RadioButtons>): types.RadioButtons {
  return { type: 'radio_buttons', ...fields };
}

export function checkboxes(fields: Fields<types.Checkboxes>): types.Checkboxes {
  return { type: 'checkboxes', ...fields };
}

export function datePicker(fields: Fields<types.Datepicker>): types.Datepicker {
  return { type: 'datepicker', ...fields };
}

export function textInput(fields: Fields<types.PlainTextInput>): types.PlainTextInput {
  return { type: 'plain_text_input', ...fields };
}

export function fileInput(fields: Fields<types.FileInput>): types.FileInput {
  return { type: 'file_input', ...fields };
}

// --- text objects --------------------------------------------------------------------------------

export function mrkdwnObject(fields: Fields<types.MrkdwnElement>): types.MrkdwnElement {
  return { type: 'mrkdwn', ...fields };
}

export function plainTextObject(fields: Fields<types.PlainTextElement>): types.PlainTextElement {
  return { type: 'plain_text', ...fields };
}

// --- short forms ---------------------------------------------------------------------------------

/** A section of mrkdwn, cut to what a section holds (3000 characters unless `limit`). */
export function section(text: string, limit: number = LIMITS.sectionText): types.SectionBlock {
  return sectionBlock({ text: mrkdwnObject({ text: clip(text, limit) }) });
}

/** A context line of mrkdwn, cut to what a context element holds. */
export function context(text: string): types.ContextBlock {
  return contextBlock({ elements: [mrkdwnObject({ text: clip(text, LIMITS.sectionText) })] });
}

/** A header: plain text only (a person's text shown as written), at most 150 characters. */
export function header(text: string, o: { emoji?: boolean } = {}): types.HeaderBlock {
  return headerBlock({
    text: plainTextObject({
      text: clip(escapePlain(text), LIMITS.headerText),
      ...(o.emoji ? { emoji: true } : {}),
    }),
  });
}

/** A button's label: plain text, cut to the 75 characters Slack allows. */
export function buttonText(text: string): types.PlainTextElement {
  return plainTextObject({ text: clip(escapePlain(text), LIMITS.buttonText), emoji: true });
}

/** A button that carries a value (or opens a url), its label cut to what Slack allows. */
export function button(
  action_id: string,
  text: string,
  extra: Partial<Fields<types.Button>> = {},
): types.Button {
  return buttonElement({ action_id, text: buttonText(text), ...extra });
}

/** The dialog a button asks before it acts: its title, what it does (mrkdwn) and its two answers. */
export function confirm(o: {
  title: string;
  text: string;
  confirm: string;
  deny: string;
  style?: 'primary' | 'danger';
}): types.ConfirmationDialog {
  return {
    title: plainTextObject({ text: o.title }),
    text: mrkdwnObject({ text: o.text }),
    confirm: plainTextObject({ text: o.confirm }),
    deny: plainTextObject({ text: o.deny }),
    ...(o.style ? { style: o.style } : {}),
  };
}

/** A plain_text element: what it says is shown as written (a person's text included). */
export function plain(text: string, max: number = VIEW_LIMITS.optionText): types.PlainTextElement {
  return plainTextObject({ text: clip(escapePlain(text), max), emoji: true });
}

export function title(text: string): types.PlainTextElement {
  // A title over 24 characters makes views.open fail with invalid_arguments.
  return plain(text, VIEW_LIMITS.title);
}

/** An input block: its block_id is its element's action_id, so a value is read by one id. */
export function input(
  id: string,
  label: string,
  element: types.InputBlock['element'],
  extra: { optional?: boolean; hint?: string } = {},
): types.InputBlock {
  return inputBlock({
    block_id: id,
    label: plain(label, VIEW_LIMITS.inputLabel),
    element: { ...element, action_id: id },
    ...(extra.optional ? { optional: true } : {}),
    ...(extra.hint ? { hint: plain(extra.hint, VIEW_LIMITS.inputLabel) } : {}),
  });
}

/** One option of a select or of radio buttons: its text shown as written, cut to Slack's limits. */
export function option(text: string, value: string): types.PlainTextOption {
  // Values are ids and codes, far below 150 characters; the text is what may run long.
  return { text: plain(text), value: clip(value, VIEW_LIMITS.optionValue) };
}
