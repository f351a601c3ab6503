// Text objects to elements. Every string ends up as a text node (Preact escapes them), never as
// markup, which is what keeps an app's or a person's text from injecting HTML.
import { type ComponentChildren, Fragment } from 'preact';
import type { TextObject } from '../types.js';
import type { RenderContext } from './context.js';
import { formatSlackDate } from './dates.js';
import { replaceShortcodes } from './emoji.js';
import { type Inline, type Block as MBlock, parseMrkdwn } from './mrkdwn.js';

export function InlineNodes({ nodes, ctx }: { nodes: Inline[]; ctx: RenderContext }) {
  return <>{nodes.map((node, i) => renderInline(node, ctx, i))}</>;
}

function renderInline(node: Inline, ctx: RenderContext, key: number): ComponentChildren {
  switch (node.k) {
    case 'text':
      return node.text;
    case 'br':
      return <br key={key} />;
    case 'bold':
      return (
        <strong key={key}>
          <InlineNodes nodes={node.children} ctx={ctx} />
        </strong>
      );
    case 'italic':
      return (
        <em key={key}>
          <InlineNodes nodes={node.children} ctx={ctx} />
        </em>
      );
    case 'strike':
      return (
        <s key={key}>
          <InlineNodes nodes={node.children} ctx={ctx} />
        </s>
      );
    case 'code':
      return (
        <code key={key} class="bk-code">
          {node.text}
        </code>
      );
    case 'link':
      return (
        <a key={key} href={node.url} target="_blank" rel="noopener noreferrer">
          {node.label}
        </a>
      );
    case 'user':
      return (
        <span key={key} class="bk-mention">
          @{ctx.userName(node.id) ?? node.label ?? node.id}
        </span>
      );
    case 'channel':
      return (
        <span key={key} class="bk-mention">
          #{ctx.channelName(node.id) ?? node.label ?? node.id}
        </span>
      );
    case 'special':
      return (
        <span key={key} class="bk-mention bk-mention-special">
          {node.text}
        </span>
      );
    case 'date': {
      const text =
        formatSlackDate(node.seconds, node.format, ctx.timeZone, undefined, ctx.locale) ??
        node.fallback;
      return node.link ? (
        <a key={key} href={node.link} target="_blank" rel="noopener noreferrer">
          {text}
        </a>
      ) : (
        <time key={key} dateTime={new Date(Number(node.seconds) * 1000 || 0).toISOString()}>
          {text}
        </time>
      );
    }
    case 'emoji':
      return (
        <span key={key} class="bk-emoji" role="img" aria-label={node.name.replace(/_/g, ' ')}>
          {node.char}
        </span>
      );
  }
}

/**
 * `trailing` (a message's "(edited)") goes at the end of the text's last line: inside its last
 * paragraph, quote line or list item, or right after a code block.
 */
function renderBlock(
  block: MBlock,
  ctx: RenderContext,
  key: number,
  trailing?: ComponentChildren,
): ComponentChildren {
  switch (block.k) {
    case 'p':
      return (
        <p key={key} class="bk-p">
          <InlineNodes nodes={block.children} ctx={ctx} />
          {trailing}
        </p>
      );
    case 'pre':
      return (
        <Fragment key={key}>
          <pre class="bk-pre">{block.text}</pre>
          {trailing}
        </Fragment>
      );
    case 'quote':
      return (
        <blockquote key={key} class="bk-quote">
          {block.children.map((child, i) =>
            renderBlock(child, ctx, i, i === block.children.length - 1 ? trailing : undefined),
          )}
        </blockquote>
      );
    case 'list': {
      const items = block.items.map((item, i) => (
        <li key={i}>
          <InlineNodes nodes={item} ctx={ctx} />
          {i === block.items.length - 1 ? trailing : null}
        </li>
      ));
      return block.ordered ? (
        <ol key={key} class="bk-list">
          {items}
        </ol>
      ) : (
        <ul key={key} class="bk-list">
          {items}
        </ul>
      );
    }
  }
}

export function MrkdwnBlocks({
  blocks,
  ctx,
  trailing,
}: {
  blocks: MBlock[];
  ctx: RenderContext;
  trailing?: ComponentChildren;
}) {
  return (
    <div class="bk-mrkdwn">
      {blocks.map((block, i) =>
        renderBlock(block, ctx, i, i === blocks.length - 1 ? trailing : undefined),
      )}
      {blocks.length === 0 ? trailing : null}
    </div>
  );
}

export function Mrkdwn({
  text,
  ctx,
  trailing,
}: {
  text: string;
  ctx: RenderContext;
  trailing?: ComponentChildren;
}) {
  return <MrkdwnBlocks blocks={parseMrkdwn(text)} ctx={ctx} trailing={trailing} />;
}

/** A plain_text object's text as a string (emoji shortcodes replaced unless `emoji: false`). */
export function plain(text: TextObject | undefined): string {
  if (!text || typeof text.text !== 'string') return '';
  if (text.type === 'plain_text' && text.emoji === false) return text.text;
  return text.type === 'mrkdwn' ? text.text : replaceShortcodes(text.text);
}

export function Text({
  text,
  ctx,
  trailing,
}: {
  text: TextObject | undefined;
  ctx: RenderContext;
  /** Shown at the end of the text's last line (see renderBlock). */
  trailing?: ComponentChildren;
}) {
  if (!text || typeof text.text !== 'string') return trailing ? <span>{trailing}</span> : null;
  if (text.type === 'mrkdwn') return <Mrkdwn text={text.text} ctx={ctx} trailing={trailing} />;
  return (
    <span class="bk-plain">
      {plain(text)}
      {trailing}
    </span>
  );
}

/** Text for places that take one line of inline content (option labels, button texts). */
export function InlineText({ text, ctx }: { text: TextObject | undefined; ctx: RenderContext }) {
  if (!text || typeof text.text !== 'string') return null;
  if (text.type === 'mrkdwn') {
    return <InlineNodes nodes={parseMrkdwn(text.text).flatMap(flattenBlock)} ctx={ctx} />;
  }
  return <>{plain(text)}</>;
}

function flattenBlock(block: MBlock): Inline[] {
  switch (block.k) {
    case 'p':
      return block.children;
    case 'pre':
      return [{ k: 'code', text: block.text }];
    case 'quote':
      return block.children.flatMap(flattenBlock);
    case 'list':
      return block.items.flatMap((item) => [{ k: 'text', text: '• ' } as Inline, ...item]);
  }
}
