// Block Kit blocks to markup: the entry point of the renderer. Unknown block types render as a
// quiet placeholder naming the type, so an app's mistake is visible without breaking the page.
import type { ComponentChildren } from 'preact';
import type { Block, BlockElement, TextObject } from '../types.js';
import { actionIdOf, blockIdOf, domId, type RenderContext } from './context.js';
import { safeUrl } from './element-props.js';
import { Element, ImageElement } from './elements.js';
import { parseMrkdwn } from './mrkdwn.js';
import { richTextBlocks } from './rich-text.js';
import { MrkdwnBlocks, plain, Text } from './text.js';

interface BlockProps {
  block: Block;
  blockId: string;
  ctx: RenderContext;
  /** Shown at the end of this block's text (a message's "(edited)"); see trailingAt. */
  trailing?: ComponentChildren;
}

/**
 * Keys an element by what it is, so a new version of a surface that puts another element where
 * this one was (App Home republished with a block more above it) mounts a fresh component
 * instead of handing it this one's open menu or typed query.
 */
function elementKey(el: BlockElement, actionId: string): string {
  return `${el.type}:${actionId}`;
}

function elementsOf(value: unknown): BlockElement[] {
  return Array.isArray(value)
    ? (value as BlockElement[]).filter((e) => e && typeof e === 'object')
    : [];
}

function Section({ block, blockId, ctx, trailing }: BlockProps) {
  const fields = Array.isArray(block.fields) ? (block.fields as TextObject[]) : [];
  const accessory = block.accessory as BlockElement | undefined;
  return (
    <div class="bk-section">
      <div class="bk-section-body">
        <Text
          text={block.text as TextObject | undefined}
          ctx={ctx}
          trailing={fields.length ? undefined : trailing}
        />
        {fields.length ? (
          <div class="bk-fields">
            {fields.map((field, i) => (
              <div class="bk-field" key={i}>
                <Text
                  text={field}
                  ctx={ctx}
                  trailing={i === fields.length - 1 ? trailing : undefined}
                />
              </div>
            ))}
          </div>
        ) : null}
      </div>
      {accessory && typeof accessory === 'object' ? (
        <div class={`bk-accessory bk-accessory-${accessory.type}`}>
          <Element
            key={elementKey(accessory, actionIdOf(accessory, 0))}
            el={accessory}
            blockId={blockId}
            actionId={actionIdOf(accessory, 0)}
            ctx={ctx}
            dispatch={true}
          />
        </div>
      ) : null}
    </div>
  );
}

function Context({ block, ctx, trailing }: BlockProps) {
  return (
    <div class="bk-context">
      {elementsOf(block.elements).map((el, i) =>
        el.type === 'image' ? (
          <ImageElement key={i} el={el} />
        ) : (
          <Text key={i} text={el as unknown as TextObject} ctx={ctx} />
        ),
      )}
      {trailing}
    </div>
  );
}

function Actions({ block, blockId, ctx }: BlockProps) {
  return (
    <div class="bk-actions">
      {elementsOf(block.elements).map((el, i) => (
        <Element
          key={elementKey(el, actionIdOf(el, i))}
          el={el}
          blockId={blockId}
          actionId={actionIdOf(el, i)}
          ctx={ctx}
          dispatch={true}
        />
      ))}
    </div>
  );
}

function ImageBlock({ block }: BlockProps) {
  const src = safeUrl(block.image_url);
  const alt = typeof block.alt_text === 'string' ? block.alt_text : '';
  const title = plain(block.title as TextObject | undefined);
  return (
    <figure class="bk-image">
      {title ? <figcaption class="bk-image-title">{title}</figcaption> : null}
      {src ? <img src={src} alt={alt} loading="lazy" /> : <span>{alt}</span>}
    </figure>
  );
}

function Input({ block, blockId, ctx }: BlockProps) {
  const el = block.element as BlockElement | undefined;
  if (!el || typeof el !== 'object') return null;
  const actionId = actionIdOf(el, 0);
  const inputId = domId(ctx, blockId, actionId);
  const labelId = `${inputId}-label`;
  const error = ctx.errors?.[blockId];
  const errorId = error ? `${inputId}-error` : undefined;
  const hint = block.hint as TextObject | undefined;
  // Only modals collect input blocks on submit; elsewhere Slack sends them as actions.
  const dispatch = ctx.surface !== 'modal' || block.dispatch_action === true;
  return (
    <div class={`bk-input-block${error ? ' bk-input-block-error' : ''}`}>
      <label class="bk-label" id={labelId} for={inputId}>
        {plain(block.label as TextObject | undefined)}
        {block.optional ? <span class="bk-optional"> (optional)</span> : null}
      </label>
      <Element
        key={elementKey(el, actionId)}
        el={el}
        blockId={blockId}
        actionId={actionId}
        ctx={ctx}
        dispatch={dispatch}
        inputId={inputId}
        labelId={labelId}
        errorId={errorId}
      />
      {hint ? (
        <div class="bk-hint">
          <Text text={hint} ctx={ctx} />
        </div>
      ) : null}
      {error ? (
        <div class="bk-error" id={errorId} role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}

function BlockView(props: BlockProps) {
  const { block, ctx, trailing } = props;
  switch (block.type) {
    case 'section':
      return <Section {...props} />;
    case 'context':
      return <Context {...props} />;
    case 'divider':
      return <hr class="bk-divider" />;
    case 'header':
      return (
        <h3 class="bk-header">
          {plain(block.text as TextObject | undefined)}
          {trailing}
        </h3>
      );
    case 'actions':
      return <Actions {...props} />;
    case 'image':
      return <ImageBlock {...props} />;
    case 'input':
      return <Input {...props} />;
    case 'rich_text':
      return <MrkdwnBlocks blocks={richTextBlocks(block.elements)} ctx={ctx} trailing={trailing} />;
    case 'markdown':
      return (
        <MrkdwnBlocks
          blocks={parseMrkdwn(typeof block.text === 'string' ? block.text : '')}
          ctx={ctx}
          trailing={trailing}
        />
      );
    default:
      return <div class="bk-unsupported">[{block.type} block]</div>;
  }
}

function hasText(block: Block): boolean {
  switch (block.type) {
    case 'section':
      return Boolean(block.text) || (Array.isArray(block.fields) && block.fields.length > 0);
    case 'context':
      return elementsOf(block.elements).some((el) => el.type !== 'image');
    case 'rich_text':
    case 'markdown':
      return true;
    default:
      return false;
  }
}

/**
 * Which block ends the message's text, for "(edited)" to follow it as in Slack: the last block
 * with text, never a row of buttons or an image after it; a header only when nothing else has
 * text; -1 when no block has any.
 */
function trailingAt(blocks: Block[]): number {
  const index = blocks.findLastIndex(hasText);
  return index >= 0 ? index : blocks.findLastIndex((b) => b.type === 'header');
}

export function Blocks({
  blocks,
  ctx,
  trailing,
}: {
  blocks: Block[];
  ctx: RenderContext;
  trailing?: ComponentChildren;
}) {
  const at = trailing ? trailingAt(blocks) : -1;
  return (
    <div class="bk-blocks">
      {blocks.map((block, index) => {
        const blockId = blockIdOf(block, index);
        return (
          <div class={`bk-block bk-block-${block.type}`} key={blockId} data-block-id={blockId}>
            <BlockView
              block={block}
              blockId={blockId}
              ctx={ctx}
              trailing={index === at ? trailing : undefined}
            />
          </div>
        );
      })}
      {trailing && at < 0 ? <div>{trailing}</div> : null}
    </div>
  );
}
