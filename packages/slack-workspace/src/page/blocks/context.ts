// What the renderer needs from its surroundings, and the container that holds what a person has
// typed or chosen so far, read back in Slack's `view.state.values` shape.
import type {
  Block,
  BlockAction,
  BlockElement,
  ElementValue,
  OptionObject,
  OptionsAnswer,
  StateValues,
} from '../types.js';

export type Surface = 'message' | 'modal' | 'home';

export interface RenderContext {
  surface: Surface;
  /** Prefix for DOM ids, unique per rendered surface so labels point at the right field. */
  idPrefix: string;
  timeZone: string;
  /** The reader's Slack locale: dates and times are written their way. */
  locale?: string | undefined;
  userName(id: string): string | undefined;
  channelName(id: string): string | undefined;
  people: { id: string; name: string }[];
  channels: { id: string; name: string }[];
  onAction(action: BlockAction): void;
  loadOptions(query: {
    action_id: string;
    block_id: string;
    value: string;
  }): Promise<OptionsAnswer>;
  values: ValueStore;
  /** Errors per block_id, shown under the field (view_submission `response_action: errors`). */
  errors?: Record<string, string>;
}

export class ValueStore {
  readonly #values = new Map<string, Map<string, ElementValue>>();

  set(blockId: string, actionId: string, value: ElementValue): void {
    let block = this.#values.get(blockId);
    if (!block) {
      block = new Map();
      this.#values.set(blockId, block);
    }
    block.set(actionId, value);
  }

  get(blockId: string, actionId: string): ElementValue | undefined {
    return this.#values.get(blockId)?.get(actionId);
  }
}

/** Slack gives blocks and elements without ids generated ones; ours are stable per position. */
export function blockIdOf(block: Block, index: number): string {
  return typeof block.block_id === 'string' && block.block_id ? block.block_id : `block-${index}`;
}

export function actionIdOf(element: BlockElement, index: number): string {
  return typeof element.action_id === 'string' && element.action_id
    ? element.action_id
    : `action-${index}`;
}

export function domId(ctx: RenderContext, ...parts: string[]): string {
  return [ctx.idPrefix, ...parts].join('-').replace(/[^A-Za-z0-9_-]/g, '_');
}

function options(list: unknown): OptionObject[] {
  return Array.isArray(list) ? (list as OptionObject[]) : [];
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * The value an element starts with, as Slack reports an untouched element in state.values;
 * undefined for elements that hold no state (buttons, overflow menus, images).
 */
export function initialValue(element: BlockElement): ElementValue | undefined {
  const type = element.type;
  switch (type) {
    case 'plain_text_input':
    case 'number_input':
    case 'email_text_input':
    case 'url_text_input':
      return { type, value: str(element.initial_value) };
    case 'static_select':
    case 'external_select':
    case 'radio_buttons':
      return { type, selected_option: (element.initial_option as OptionObject) ?? null };
    case 'multi_static_select':
    case 'multi_external_select':
    case 'checkboxes':
      return { type, selected_options: options(element.initial_options) };
    case 'users_select':
      return { type, selected_user: str(element.initial_user) };
    case 'multi_users_select':
      return { type, selected_users: strings(element.initial_users) };
    case 'conversations_select':
      return { type, selected_conversation: str(element.initial_conversation) };
    case 'multi_conversations_select':
      return { type, selected_conversations: strings(element.initial_conversations) };
    case 'channels_select':
      return { type, selected_channel: str(element.initial_channel) };
    case 'multi_channels_select':
      return { type, selected_channels: strings(element.initial_channels) };
    case 'datepicker':
      return { type, selected_date: str(element.initial_date) };
    case 'timepicker':
      return { type, selected_time: str(element.initial_time) };
    default:
      return undefined;
  }
}

function stateful(block: Block): BlockElement[] {
  if (block.type === 'input' && block.element) return [block.element as BlockElement];
  if (block.type === 'actions' && Array.isArray(block.elements)) {
    return block.elements as BlockElement[];
  }
  if (block.type === 'section' && block.accessory) return [block.accessory as BlockElement];
  return [];
}

/** The surface's current values in Slack's `view.state.values` shape. */
export function collectValues(blocks: Block[], store: ValueStore): StateValues {
  const out: StateValues = Object.create(null);
  blocks.forEach((block, index) => {
    const blockId = blockIdOf(block, index);
    stateful(block).forEach((element, n) => {
      const actionId = actionIdOf(element, n);
      const value = store.get(blockId, actionId) ?? initialValue(element);
      if (!value) return;
      out[blockId] ??= Object.create(null);
      out[blockId]![actionId] = value;
    });
  });
  return out;
}
