/**
 * The pieces of Block Kit below the blocks (text objects, options, confirm dialogs and the
 * interactive elements), checked by Slack's documented limits. Errors are Slack-style lines with
 * a JSON pointer; block-kit.ts checks the blocks and the surfaces around them.
 */
import { isObject } from './http-util.js';

type Json = Record<string, unknown>;

/** Where an element sits: each place takes its own set of element types. */
export type Place = 'actions' | 'accessory' | 'input';

const SELECTS = new Set([
  'static_select',
  'external_select',
  'users_select',
  'conversations_select',
  'channels_select',
]);
const MULTI_SELECTS = new Set([...SELECTS].map((type) => `multi_${type}`));
/** Elements that only an input block may hold. */
const INPUT_ONLY = new Set([
  'plain_text_input',
  'email_text_input',
  'url_text_input',
  'number_input',
  'file_input',
  'rich_text_input',
]);
/** Elements an input block may not hold: they act at once instead of being submitted. */
const NOT_IN_INPUT = new Set(['button', 'overflow', 'image', 'workflow_button']);
const ELEMENTS = new Set([
  ...SELECTS,
  ...MULTI_SELECTS,
  ...INPUT_ONLY,
  ...NOT_IN_INPUT,
  'checkboxes',
  'radio_buttons',
  'datepicker',
  'timepicker',
  'datetimepicker',
]);

/** Elements whose options are texts of either kind; in menus they must be plain_text. */
const RICH_OPTIONS = new Set(['checkboxes', 'radio_buttons']);

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

function isDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}

/** An option as Slack compares them: its text (kind and words) and its value. */
function optionKey(option: unknown): string | undefined {
  if (!isObject(option) || !isObject(option.text)) return undefined;
  return JSON.stringify([option.text.type, option.text.text, option.value]);
}

export class Checker {
  readonly errors: string[] = [];

  fail(message: string, pointer: string): void {
    this.errors.push(`[ERROR] ${message} [json-pointer:${pointer}]`);
  }

  max(value: unknown, limit: number, pointer: string, what: string): void {
    if (typeof value === 'string' && value.length > limit) {
      this.fail(`${what} must be at most ${limit} characters`, pointer);
    }
  }

  count(items: unknown, limit: number, pointer: string, what: string): void {
    if (Array.isArray(items) && items.length > limit) {
      this.fail(`${what}: no more than ${limit} items allowed`, pointer);
    }
  }

  /** A string field, if given, must be a string of at most `limit` characters. */
  string(value: unknown, limit: number, pointer: string, what: string): void {
    if (value === undefined || value === null) return;
    if (typeof value !== 'string') this.fail(`${what} must be a string`, pointer);
    else this.max(value, limit, pointer, what);
  }

  /**
   * Slack refuses a null anywhere in a block and an empty list where a list is given (a field
   * with nothing in it is left out instead).
   */
  shape(value: unknown, pointer: string): void {
    if (value === null) {
      this.fail('must not be null (leave the field out instead)', pointer);
    } else if (Array.isArray(value)) {
      if (value.length === 0)
        this.fail('must not be an empty array (leave it out instead)', pointer);
      value.forEach((item, i) => {
        this.shape(item, `${pointer}/${i}`);
      });
    } else if (isObject(value)) {
      for (const [key, item] of Object.entries(value)) this.shape(item, `${pointer}/${key}`);
    }
  }

  /**
   * A text object: plain_text or mrkdwn (or plain_text only where Slack wants it), with at least
   * one character and at most `limit` where Slack sets one. A null was reported by shape().
   */
  text(
    value: unknown,
    pointer: string,
    what: string,
    options: { limit?: number; plain?: boolean; required?: boolean },
  ): void {
    if (value === null) return;
    if (value === undefined) {
      if (options.required) this.fail(`${what} is required`, pointer);
      return;
    }
    if (!isObject(value)) {
      this.fail(`${what} must be a text object`, pointer);
      return;
    }
    if (value.type !== 'plain_text' && value.type !== 'mrkdwn') {
      this.fail(`${what} type must be plain_text or mrkdwn`, `${pointer}/type`);
    } else if (options.plain && value.type !== 'plain_text') {
      this.fail(`${what} must be plain_text`, `${pointer}/type`);
    }
    if (typeof value.text !== 'string') {
      this.fail(`${what} must have a text`, `${pointer}/text`);
    } else if (value.text.length === 0) {
      this.fail(`${what} must be more than 0 characters`, `${pointer}/text`);
    } else if (options.limit !== undefined) {
      this.max(value.text, options.limit, `${pointer}/text`, what);
    }
    if (value.type === 'mrkdwn' && value.emoji !== undefined) {
      this.fail('emoji is only allowed on plain_text', `${pointer}/emoji`);
    }
    if (value.type === 'plain_text' && value.verbatim !== undefined) {
      this.fail('verbatim is only allowed on mrkdwn', `${pointer}/verbatim`);
    }
  }

  option(option: unknown, pointer: string, plain: boolean): void {
    if (option === null) return;
    if (!isObject(option)) {
      this.fail('option must be an object', pointer);
      return;
    }
    this.text(option.text, `${pointer}/text`, 'option text', { limit: 75, plain, required: true });
    if (typeof option.value !== 'string') this.fail('option value is required', `${pointer}/value`);
    else this.max(option.value, 150, `${pointer}/value`, 'option value');
    this.text(option.description, `${pointer}/description`, 'option description', {
      limit: 75,
      plain: true,
    });
    this.string(option.url, 3000, `${pointer}/url`, 'option url');
  }

  /** options / option_groups, and initial_option(s) among them. */
  options(element: Json, pointer: string): void {
    const type = element.type as string;
    const plain = !RICH_OPTIONS.has(type);
    const offered = new Set<string>();
    const listed = (list: unknown, at: string) => {
      if (!Array.isArray(list)) return;
      list.forEach((o, i) => {
        this.option(o, `${at}/${i}`, plain);
        const key = optionKey(o);
        if (key) offered.add(key);
      });
    };
    const hasOptions = element.options !== undefined;
    const hasGroups = element.option_groups !== undefined;
    if (type === 'static_select' || type === 'multi_static_select') {
      if (hasOptions === hasGroups) {
        this.fail(`${type} needs either options or option_groups, not both`, pointer);
      }
    } else if (RICH_OPTIONS.has(type) || type === 'overflow') {
      if (!hasOptions) this.fail(`${type} requires options`, `${pointer}/options`);
    }
    const limit = RICH_OPTIONS.has(type) ? 10 : type === 'overflow' ? 5 : 100;
    this.count(element.options, limit, `${pointer}/options`, `${type} options`);
    listed(element.options, `${pointer}/options`);
    if (Array.isArray(element.option_groups)) {
      this.count(element.option_groups, 100, `${pointer}/option_groups`, 'option groups');
      element.option_groups.forEach((group, g) => {
        const at = `${pointer}/option_groups/${g}`;
        if (!isObject(group)) {
          if (group !== null) this.fail('option group must be an object', at);
          return;
        }
        this.text(group.label, `${at}/label`, 'option group label', {
          limit: 75,
          plain: true,
          required: true,
        });
        this.count(group.options, 100, `${at}/options`, 'group options');
        listed(group.options, `${at}/options`);
      });
    }
    // An external select's options come later, from the app: only their shape can be checked.
    const checkable = hasOptions || hasGroups;
    if (element.initial_option !== undefined) {
      this.option(element.initial_option, `${pointer}/initial_option`, plain);
      const key = optionKey(element.initial_option);
      if (checkable && key && !offered.has(key)) {
        this.fail('initial_option must be one of the options', `${pointer}/initial_option`);
      }
    }
    if (Array.isArray(element.initial_options)) {
      element.initial_options.forEach((o, i) => {
        const at = `${pointer}/initial_options/${i}`;
        this.option(o, at, plain);
        const key = optionKey(o);
        if (checkable && key && !offered.has(key)) {
          this.fail('initial_options must all be among the options', at);
        }
      });
    }
  }

  confirm(confirm: unknown, pointer: string): void {
    if (confirm === undefined || confirm === null) return;
    if (!isObject(confirm)) {
      this.fail('confirm must be an object', pointer);
      return;
    }
    const plain = { plain: true, required: true };
    this.text(confirm.title, `${pointer}/title`, 'confirm title', { limit: 100, ...plain });
    this.text(confirm.text, `${pointer}/text`, 'confirm text', { limit: 300, required: true });
    this.text(confirm.confirm, `${pointer}/confirm`, 'confirm button', { limit: 30, ...plain });
    this.text(confirm.deny, `${pointer}/deny`, 'deny button', { limit: 30, ...plain });
    this.style(confirm.style, `${pointer}/style`);
  }

  style(style: unknown, pointer: string): void {
    if (style !== undefined && style !== 'primary' && style !== 'danger') {
      this.fail('style must be primary or danger', pointer);
    }
  }

  /** An image as a block or an element: a URL (or a Slack file) and an alt text. */
  image(image: Json, pointer: string): void {
    if (image.image_url === undefined && image.slack_file === undefined) {
      this.fail('image requires image_url or slack_file', `${pointer}/image_url`);
    }
    this.string(image.image_url, 3000, `${pointer}/image_url`, 'image_url');
    if (typeof image.alt_text !== 'string' || image.alt_text === '') {
      this.fail('image requires alt_text', `${pointer}/alt_text`);
    } else {
      this.max(image.alt_text, 2000, `${pointer}/alt_text`, 'alt_text');
    }
  }

  element(element: unknown, pointer: string, place: Place): void {
    if (element === null) return;
    if (!isObject(element) || typeof element.type !== 'string') {
      this.fail('element must have a type', pointer);
      return;
    }
    const type = element.type;
    if (!ELEMENTS.has(type)) {
      this.fail(`unknown element type ${type}`, `${pointer}/type`);
      return;
    }
    if (place !== 'input' && INPUT_ONLY.has(type)) {
      this.fail(`${type} is only allowed in an input block`, `${pointer}/type`);
    }
    if (place === 'input' && NOT_IN_INPUT.has(type)) {
      this.fail(`${type} is not allowed in an input block`, `${pointer}/type`);
    }
    if (place === 'actions' && type === 'image') {
      this.fail('image is not allowed in an actions block', `${pointer}/type`);
    }
    this.string(element.action_id, 255, `${pointer}/action_id`, 'action_id');
    this.text(element.placeholder, `${pointer}/placeholder`, 'placeholder', {
      limit: 150,
      plain: true,
    });
    this.confirm(element.confirm, `${pointer}/confirm`);
    this.details(element, pointer);
  }

  /** What each element type adds to the common fields. */
  private details(element: Json, pointer: string): void {
    const type = element.type as string;
    const at = (field: string) => `${pointer}/${field}`;
    switch (type) {
      case 'button':
        this.text(element.text, at('text'), 'button text', {
          limit: 75,
          plain: true,
          required: true,
        });
        this.string(element.value, 2000, at('value'), 'button value');
        this.string(element.url, 3000, at('url'), 'button url');
        this.string(element.accessibility_label, 75, at('accessibility_label'), 'label');
        this.style(element.style, at('style'));
        return;
      case 'image':
        this.image(element, pointer);
        return;
      case 'plain_text_input':
        this.string(element.initial_value, 3000, at('initial_value'), 'initial_value');
        this.bounded(element.min_length, 0, 3000, at('min_length'), 'min_length');
        this.bounded(element.max_length, 1, 3000, at('max_length'), 'max_length');
        if (
          typeof element.min_length === 'number' &&
          typeof element.max_length === 'number' &&
          element.min_length > element.max_length
        ) {
          this.fail('min_length must not be over max_length', at('min_length'));
        }
        return;
      case 'number_input':
        if (typeof element.is_decimal_allowed !== 'boolean') {
          this.fail('number_input requires is_decimal_allowed', at('is_decimal_allowed'));
        }
        for (const field of ['initial_value', 'min_value', 'max_value']) {
          const value = element[field];
          if (value !== undefined && value !== null && typeof value !== 'string') {
            this.fail(`${field} must be a string`, at(field));
          }
        }
        return;
      case 'file_input':
        this.bounded(element.max_files, 1, 10, at('max_files'), 'max_files');
        return;
      case 'datepicker':
        if (typeof element.initial_date === 'string' && !isDate(element.initial_date)) {
          this.fail('initial_date must be a date as YYYY-MM-DD', at('initial_date'));
        }
        return;
      case 'timepicker':
        if (typeof element.initial_time === 'string' && !TIME.test(element.initial_time)) {
          this.fail('initial_time must be a time as HH:mm', at('initial_time'));
        }
        return;
      default:
        break;
    }
    if (
      element.options !== undefined ||
      element.option_groups !== undefined ||
      type === 'static_select' ||
      type === 'multi_static_select' ||
      type === 'overflow' ||
      RICH_OPTIONS.has(type) ||
      element.initial_option !== undefined ||
      element.initial_options !== undefined
    ) {
      this.options(element, pointer);
    }
    if (MULTI_SELECTS.has(type)) {
      this.bounded(
        element.max_selected_items,
        1,
        Number.MAX_SAFE_INTEGER,
        at('max_selected_items'),
        'max_selected_items',
      );
    }
    for (const field of ['initial_users', 'initial_conversations', 'initial_channels']) {
      const list = element[field];
      if (list === undefined || list === null) continue;
      if (!Array.isArray(list) || list.some((id) => typeof id !== 'string')) {
        this.fail(`${field} must be an array of ids`, at(field));
      }
    }
  }

  private bounded(value: unknown, min: number, max: number, pointer: string, what: string): void {
    if (value === undefined || value === null) return;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      this.fail(
        max === Number.MAX_SAFE_INTEGER
          ? `${what} must be a whole number of at least ${min}`
          : `${what} must be a whole number from ${min} to ${max}`,
        pointer,
      );
    }
  }
}
