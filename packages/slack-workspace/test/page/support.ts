import { h } from 'preact';
import { Blocks } from '../../src/page/blocks/blocks.js';
import { type RenderContext, ValueStore } from '../../src/page/blocks/context.js';
import { Mrkdwn } from '../../src/page/blocks/text.js';
import type { Block, BlockAction } from '../../src/page/types.js';
import { type El, render } from './html.js';

export function makeCtx(overrides: Partial<RenderContext> = {}): RenderContext & {
  actions: BlockAction[];
} {
  const people = new Map([
    ['U1', 'Ann'],
    ['U2', 'Bob'],
  ]);
  const channels = new Map([
    ['C1', 'general'],
    ['C2', 'lunch'],
  ]);
  const actions: BlockAction[] = [];
  return {
    surface: 'message',
    idPrefix: 't',
    timeZone: 'UTC',
    userName: (id) => people.get(id),
    channelName: (id) => channels.get(id),
    people: [...people].map(([id, name]) => ({ id, name })),
    channels: [...channels].map(([id, name]) => ({ id, name })),
    onAction: (action) => actions.push(action),
    loadOptions: async () => ({ options: [] }),
    values: new ValueStore(),
    actions,
    ...overrides,
  };
}

export function renderBlocks(blocks: Block[], ctx: RenderContext = makeCtx()): El {
  return render(h(Blocks, { blocks, ctx }));
}

export function renderMrkdwn(text: string, ctx: RenderContext = makeCtx()): El {
  return render(h(Mrkdwn, { text, ctx }));
}

export const md = (text: string) => ({ type: 'mrkdwn' as const, text });
export const pt = (text: string) => ({ type: 'plain_text' as const, text });
