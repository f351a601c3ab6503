/**
 * Slack's Block Kit rules, checked the way the Web API answers them: a list of Slack-style error
 * lines with a JSON pointer, empty when the blocks are acceptable. It covers Slack's documented
 * limits (counts, lengths, unique ids, text kinds, options, surface rules) and what Slack refuses
 * outright (nulls, empty lists, unknown types); block-kit-checker.ts holds the parts below the
 * blocks.
 */
import { Checker } from './block-kit-checker.js';
import { isObject } from './http-util.js';

type Json = Record<string, unknown>;

export type Surface = 'message' | 'modal' | 'home';

const BLOCKS = new Set([
  'actions',
  'context',
  'divider',
  'file',
  'header',
  'image',
  'input',
  'markdown',
  'rich_text',
  'section',
  'video',
]);

/** What one payload's blocks share: ids seen so far and the markdown blocks' running length. */
interface Payload {
  blockIds: Set<string>;
  markdown: number;
}

class BlockChecker extends Checker {
  block(block: unknown, pointer: string, payload: Payload, surface: Surface): void {
    if (!isObject(block) || typeof block.type !== 'string') {
      this.fail('block must have a type', pointer);
      return;
    }
    if (!BLOCKS.has(block.type)) {
      this.fail(`unknown block type ${block.type}`, `${pointer}/type`);
      return;
    }
    // Rich text is Slack's own document format, carried as given.
    if (block.type !== 'rich_text') this.shape(block, pointer);
    if (typeof block.block_id === 'string') {
      this.max(block.block_id, 255, `${pointer}/block_id`, 'block_id');
      if (payload.blockIds.has(block.block_id))
        this.fail(`duplicate block_id ${block.block_id}`, `${pointer}/block_id`);
      payload.blockIds.add(block.block_id);
    } else if (block.block_id !== undefined && block.block_id !== null) {
      this.fail('block_id must be a string', `${pointer}/block_id`);
    }
    switch (block.type) {
      case 'section':
        this.section(block, pointer);
        break;
      case 'header':
        this.text(block.text, `${pointer}/text`, 'header text', {
          limit: 150,
          plain: true,
          required: true,
        });
        break;
      case 'image':
        this.image(block, pointer);
        this.text(block.title, `${pointer}/title`, 'image title', { limit: 2000, plain: true });
        break;
      case 'context':
        this.context(block, pointer);
        break;
      case 'actions':
        this.actions(block, pointer);
        break;
      case 'input':
        this.input(block, pointer, surface);
        break;
      case 'markdown':
        if (typeof block.text !== 'string') {
          this.fail('markdown requires a text', `${pointer}/text`);
        } else {
          payload.markdown += block.text.length;
          if (payload.markdown > 12_000) {
            this.fail('markdown blocks must be at most 12000 characters in all', `${pointer}/text`);
          }
        }
        break;
      default:
        break;
    }
  }

  private section(block: Json, pointer: string): void {
    if (block.text === undefined && block.fields === undefined) {
      this.fail('section requires text or fields', pointer);
    }
    this.text(block.text, `${pointer}/text`, 'section text', { limit: 3000 });
    this.count(block.fields, 10, `${pointer}/fields`, 'section fields');
    if (Array.isArray(block.fields)) {
      block.fields.forEach((field, i) => {
        this.text(field, `${pointer}/fields/${i}`, 'section field', { limit: 2000 });
      });
    }
    if (block.accessory !== undefined)
      this.element(block.accessory, `${pointer}/accessory`, 'accessory');
  }

  private context(block: Json, pointer: string): void {
    if (!Array.isArray(block.elements)) {
      if (block.elements === undefined)
        this.fail('context requires elements', `${pointer}/elements`);
      return;
    }
    this.count(block.elements, 10, `${pointer}/elements`, 'context elements');
    block.elements.forEach((element, i) => {
      const at = `${pointer}/elements/${i}`;
      if (isObject(element) && element.type === 'image') this.image(element, at);
      else this.text(element, at, 'context element', {});
    });
  }

  private actions(block: Json, pointer: string): void {
    if (!Array.isArray(block.elements)) {
      if (block.elements === undefined)
        this.fail('actions requires elements', `${pointer}/elements`);
      return;
    }
    this.count(block.elements, 25, `${pointer}/elements`, 'actions elements');
    // Slack tells elements of one block apart by action_id alone, so it refuses twins.
    const actionIds = new Set<string>();
    block.elements.forEach((element, i) => {
      this.element(element, `${pointer}/elements/${i}`, 'actions');
      const actionId = isObject(element) ? element.action_id : undefined;
      if (typeof actionId !== 'string') return;
      if (actionIds.has(actionId)) {
        this.fail(`duplicate action_id ${actionId}`, `${pointer}/elements/${i}/action_id`);
      }
      actionIds.add(actionId);
    });
  }

  private input(block: Json, pointer: string, surface: Surface): void {
    if (surface === 'message') this.fail('input blocks are only allowed in views', pointer);
    this.text(block.label, `${pointer}/label`, 'input label', {
      limit: 2000,
      plain: true,
      required: true,
    });
    this.text(block.hint, `${pointer}/hint`, 'input hint', { limit: 2000, plain: true });
    if (block.element === undefined) this.fail('input requires an element', `${pointer}/element`);
    else this.element(block.element, `${pointer}/element`, 'input');
    if (isObject(block.element) && block.element.type === 'file_input' && surface !== 'modal') {
      this.fail('file_input is only allowed in modals', `${pointer}/element`);
    }
  }
}

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
  const checker = new BlockChecker();
  if (!Array.isArray(blocks)) {
    checker.fail('blocks must be an array', '/blocks');
    return checker.errors;
  }
  checker.count(blocks, surface === 'message' ? 50 : 100, '/blocks', 'blocks');
  const payload: Payload = { blockIds: new Set(), markdown: 0 };
  blocks.forEach((block, i) => {
    checker.block(block, `/blocks/${i}`, payload, surface);
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
  for (const field of ['title', 'submit', 'close'] as const) {
    if (view[field] === null)
      checker.fail('must not be null (leave it out instead)', `/view/${field}`);
  }
  if (surface === 'modal') {
    const plain = { limit: 24, plain: true };
    checker.text(view.title, '/view/title', 'title', { ...plain, required: true });
    checker.text(view.submit, '/view/submit', 'submit', plain);
    checker.text(view.close, '/view/close', 'close', plain);
    const hasInput =
      Array.isArray(view.blocks) && view.blocks.some((b) => isObject(b) && b.type === 'input');
    if (hasInput && view.submit === undefined) {
      checker.fail('a view with input blocks requires submit', '/view/submit');
    }
  }
  checker.string(view.private_metadata, 3000, '/view/private_metadata', 'private_metadata');
  checker.string(view.callback_id, 255, '/view/callback_id', 'callback_id');
  checker.string(view.external_id, 255, '/view/external_id', 'external_id');
  if (view.blocks === undefined) checker.fail('view requires blocks', '/view/blocks');
  return [
    ...checker.errors,
    ...blockKitErrors(view.blocks ?? [], surface).map((e) =>
      e.replace('json-pointer:/blocks', 'json-pointer:/view/blocks'),
    ),
  ];
}

/**
 * Errors of an app's answer to a block_suggestion: at most 100 options or option groups, each a
 * plain_text option as in a static select.
 */
export function optionsAnswerErrors(answer: Json): string[] {
  const checker = new Checker();
  const element = {
    type: 'external_select',
    ...(answer.options !== undefined ? { options: answer.options } : {}),
    ...(answer.option_groups !== undefined ? { option_groups: answer.option_groups } : {}),
  };
  // No shape() here: an empty list is how an app says nothing matches.
  checker.options(element, '');
  return checker.errors;
}
