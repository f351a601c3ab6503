/**
 * Slack's Block Kit limits, checked the way the Web API answers them: a list of Slack-style error
 * lines with a JSON pointer, empty when the blocks are acceptable. Not exhaustive; it covers what
 * an app's formatter can get wrong (counts, lengths, unique ids, surface rules).
 */
import { isObject } from './http-util.js';

type Json = Record<string, unknown>;

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (isObject(value) && typeof value.text === 'string') return value.text;
  return undefined;
}

class Checker {
  readonly errors: string[] = [];

  max(value: string | undefined, limit: number, pointer: string, what: string): void {
    if (value !== undefined && value.length > limit) {
      this.errors.push(
        `[ERROR] ${what} must be at most ${limit} characters [json-pointer:${pointer}]`,
      );
    }
  }

  count(items: unknown, limit: number, pointer: string, what: string): void {
    if (Array.isArray(items) && items.length > limit) {
      this.errors.push(
        `[ERROR] ${what}: no more than ${limit} items allowed [json-pointer:${pointer}]`,
      );
    }
  }

  fail(message: string, pointer: string): void {
    this.errors.push(`[ERROR] ${message} [json-pointer:${pointer}]`);
  }

  option(option: unknown, pointer: string): void {
    if (!isObject(option)) {
      this.fail('option must be an object', pointer);
      return;
    }
    this.max(textOf(option.text), 75, `${pointer}/text/text`, 'option text');
    if (typeof option.value === 'string')
      this.max(option.value, 150, `${pointer}/value`, 'option value');
    this.max(textOf(option.description), 75, `${pointer}/description/text`, 'option description');
  }

  options(element: Json, pointer: string): void {
    for (const key of ['options', 'initial_options'] as const) {
      const list = element[key];
      if (!Array.isArray(list)) continue;
      if (key === 'options') {
        const limit =
          element.type === 'checkboxes' || element.type === 'radio_buttons'
            ? 10
            : element.type === 'overflow'
              ? 5
              : 100;
        this.count(list, limit, `${pointer}/${key}`, `${element.type} options`);
      }
      list.forEach((o, i) => {
        this.option(o, `${pointer}/${key}/${i}`);
      });
    }
    if (Array.isArray(element.option_groups)) {
      this.count(element.option_groups, 100, `${pointer}/option_groups`, 'option groups');
      element.option_groups.forEach((group, g) => {
        if (!isObject(group)) return;
        this.max(textOf(group.label), 75, `${pointer}/option_groups/${g}/label/text`, 'label');
        this.count(group.options, 100, `${pointer}/option_groups/${g}/options`, 'group options');
        if (Array.isArray(group.options)) {
          group.options.forEach((o, i) => {
            this.option(o, `${pointer}/option_groups/${g}/options/${i}`);
          });
        }
      });
    }
    if (element.initial_option !== undefined)
      this.option(element.initial_option, `${pointer}/initial_option`);
  }

  element(element: unknown, pointer: string): void {
    if (!isObject(element) || typeof element.type !== 'string') {
      this.fail('element must have a type', pointer);
      return;
    }
    this.max(element.action_id as string | undefined, 255, `${pointer}/action_id`, 'action_id');
    switch (element.type) {
      case 'button':
        this.max(textOf(element.text), 75, `${pointer}/text/text`, 'button text');
        this.max(element.value as string | undefined, 2000, `${pointer}/value`, 'button value');
        this.max(element.url as string | undefined, 3000, `${pointer}/url`, 'button url');
        break;
      case 'plain_text_input':
        this.max(textOf(element.placeholder), 150, `${pointer}/placeholder/text`, 'placeholder');
        break;
      case 'number_input':
        if (typeof element.is_decimal_allowed !== 'boolean') {
          this.fail('number_input requires is_decimal_allowed', `${pointer}/is_decimal_allowed`);
        }
        break;
      case 'image':
        this.max(element.alt_text as string | undefined, 2000, `${pointer}/alt_text`, 'alt_text');
        break;
      default:
        break;
    }
    this.options(element, pointer);
    if (isObject(element.confirm)) {
      this.max(
        textOf(element.confirm.title),
        100,
        `${pointer}/confirm/title/text`,
        'confirm title',
      );
      this.max(textOf(element.confirm.text), 300, `${pointer}/confirm/text/text`, 'confirm text');
    }
  }

  block(block: unknown, pointer: string, blockIds: Set<string>, surface: Surface): void {
    if (!isObject(block) || typeof block.type !== 'string') {
      this.fail('block must have a type', pointer);
      return;
    }
    if (typeof block.block_id === 'string') {
      this.max(block.block_id, 255, `${pointer}/block_id`, 'block_id');
      if (blockIds.has(block.block_id))
        this.fail(`duplicate block_id ${block.block_id}`, `${pointer}/block_id`);
      blockIds.add(block.block_id);
    }
    switch (block.type) {
      case 'section':
        if (block.text === undefined && block.fields === undefined) {
          this.fail('section requires text or fields', pointer);
        }
        this.max(textOf(block.text), 3000, `${pointer}/text/text`, 'section text');
        this.count(block.fields, 10, `${pointer}/fields`, 'section fields');
        if (Array.isArray(block.fields)) {
          block.fields.forEach((f, i) => {
            this.max(textOf(f), 2000, `${pointer}/fields/${i}/text`, 'section field');
          });
        }
        if (block.accessory !== undefined) this.element(block.accessory, `${pointer}/accessory`);
        break;
      case 'header':
        this.max(textOf(block.text), 150, `${pointer}/text/text`, 'header text');
        break;
      case 'context':
        this.count(block.elements, 10, `${pointer}/elements`, 'context elements');
        break;
      case 'actions':
        this.count(block.elements, 25, `${pointer}/elements`, 'actions elements');
        if (Array.isArray(block.elements)) {
          // Slack tells elements of one block apart by action_id alone, so it refuses twins.
          const actionIds = new Set<string>();
          block.elements.forEach((e, i) => {
            this.element(e, `${pointer}/elements/${i}`);
            const actionId = isObject(e) ? e.action_id : undefined;
            if (typeof actionId !== 'string') return;
            if (actionIds.has(actionId)) {
              this.fail(`duplicate action_id ${actionId}`, `${pointer}/elements/${i}/action_id`);
            }
            actionIds.add(actionId);
          });
        }
        break;
      case 'input':
        if (surface === 'message') this.fail('input blocks are only allowed in views', pointer);
        this.max(textOf(block.label), 2000, `${pointer}/label/text`, 'input label');
        this.max(textOf(block.hint), 2000, `${pointer}/hint/text`, 'input hint');
        if (block.element === undefined)
          this.fail('input requires an element', `${pointer}/element`);
        else this.element(block.element, `${pointer}/element`);
        if (isObject(block.element) && block.element.type === 'file_input' && surface !== 'modal') {
          this.fail('file_input is only allowed in modals', `${pointer}/element`);
        }
        break;
      default:
        break;
    }
  }
}

export type Surface = 'message' | 'modal' | 'home';

/**
 * Slack's answer to blocks it refuses: `errors` without the `[ERROR]` prefix, the full lines in
 * `response_metadata.messages`.
 */
export function invalidBlocks(lines: string[]): Record<string, unknown> {
  return {
    errors: lines.map((line) => line.replace(/^\[ERROR\] /, '')),
    response_metadata: { messages: lines },
  };
}

/** Error lines (Slack's `response_metadata.messages` style); empty when acceptable. */
export function blockKitErrors(blocks: unknown, surface: Surface): string[] {
  const checker = new Checker();
  if (!Array.isArray(blocks)) {
    checker.fail('blocks must be an array', '/blocks');
    return checker.errors;
  }
  checker.count(blocks, surface === 'message' ? 50 : 100, '/blocks', 'blocks');
  const ids = new Set<string>();
  blocks.forEach((block, i) => {
    checker.block(block, `/blocks/${i}`, ids, surface);
  });
  return checker.errors;
}

/** Errors of a whole modal or Home tab view object. */
export function viewErrors(view: unknown): string[] {
  if (!isObject(view)) return ['[ERROR] view must be an object [json-pointer:/view]'];
  const surface: Surface = view.type === 'home' ? 'home' : 'modal';
  const checker = new Checker();
  if (view.type !== 'modal' && view.type !== 'home') {
    checker.fail('view type must be modal or home', '/view/type');
  }
  if (surface === 'modal') {
    if (textOf(view.title) === undefined) checker.fail('modal requires a title', '/view/title');
    checker.max(textOf(view.title), 24, '/view/title/text', 'title');
    checker.max(textOf(view.submit), 24, '/view/submit/text', 'submit');
    checker.max(textOf(view.close), 24, '/view/close/text', 'close');
    const hasInput =
      Array.isArray(view.blocks) && view.blocks.some((b) => isObject(b) && b.type === 'input');
    if (hasInput && view.submit === undefined) {
      checker.fail('a view with input blocks requires submit', '/view/submit');
    }
  }
  checker.max(
    view.private_metadata as string | undefined,
    3000,
    '/view/private_metadata',
    'private_metadata',
  );
  checker.max(view.callback_id as string | undefined, 255, '/view/callback_id', 'callback_id');
  checker.max(view.external_id as string | undefined, 255, '/view/external_id', 'external_id');
  return [
    ...checker.errors,
    ...blockKitErrors(view.blocks ?? [], surface).map((e) =>
      e.replace('json-pointer:/blocks', 'json-pointer:/view/blocks'),
    ),
  ];
}
