// One message of a conversation: sender, time, body (blocks or mrkdwn text), files, the app's
// link previews, thread replies, and the "More actions" menu carrying the app's message
// shortcuts, Reply in thread, and Edit and Delete on one's own messages.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import { Blocks } from '../blocks/blocks.js';
import { Mrkdwn } from '../blocks/text.js';
import { EyeIcon, MoreVerticalIcon, PaperclipIcon } from '../icons.js';
import {
  contentVersion,
  displayName,
  localeOf,
  type SurfaceHooks,
  type SurfaceValues,
  surfaceContext,
  wordsOf,
} from '../surface.js';
import type { Message, State } from '../types.js';
import { timeOf } from '../words.js';
import { ConfirmDelete, EditMessage } from './message-edit.js';
import { Unfurls } from './unfurl.js';

/** The top and bottom of what shows of `el`'s scrolled list (or of the window, outside one). */
function scrolledEdges(el: HTMLElement): { top: number; bottom: number } {
  for (let at = el.parentElement; at; at = at.parentElement) {
    if (/(auto|scroll)/.test(getComputedStyle(at).overflowY)) {
      const { top, bottom } = at.getBoundingClientRect();
      return { top, bottom };
    }
  }
  return { top: 0, bottom: window.innerHeight };
}

export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return (words.length > 1 ? `${words[0]![0]}${words[1]![0]}` : name.slice(0, 2)).toUpperCase();
}

/** A message's time, as the reader's locale writes it ("2:05 PM", "14:05"), in their zone. */
export function formatTime(
  ts: string,
  timeZone: string | undefined,
  locale: string | undefined,
): string {
  const date = new Date(Number.parseFloat(ts) * 1000);
  if (Number.isNaN(date.getTime())) return '';
  return timeOf(date, locale, timeZone);
}

function MoreActions(props: {
  state: State;
  message: Message;
  hooks: SurfaceHooks;
  onReply?: () => void;
  /** Set on the acting person's own messages. */
  onEdit?: () => void;
  onDelete?: () => void;
}) {
  const { state, message, hooks } = props;
  const [open, setOpen] = useState(false);
  // Opens upwards where the space below, down to the edge of the scrolled list, is too short: the
  // newest message's menu was cut off under the composer.
  const [up, setUp] = useState(false);
  const menu = useRef<HTMLDivElement>(null);
  const shortcuts = state.app.shortcuts.filter((s) => s.type === 'message');
  const words = wordsOf(state);
  const menuId = `menu-${message.channel}-${message.ts}`.replace(/[^A-Za-z0-9_-]/g, '_');

  useLayoutEffect(() => {
    if (!open) {
      setUp(false);
      return;
    }
    const el = menu.current;
    if (!el) return;
    const { top, bottom } = el.getBoundingClientRect();
    const edge = scrolledEdges(el);
    setUp(bottom > edge.bottom && top - edge.top > edge.bottom - top);
  }, [open]);

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const close = (event: MouseEvent) => {
      if (!menu.current?.parentElement?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  const onKeyDown = (event: KeyboardEvent) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') setOpen(false);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      items[(at + step + items.length) % items.length]?.focus();
    }
  };

  return (
    <div class="msg-more">
      <button
        type="button"
        class="icon-button"
        aria-label={words.moreActions}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen(!open)}
      >
        <MoreVerticalIcon />
      </button>
      {open ? (
        <div
          class={`menu${up ? ' menu-up' : ''}`}
          role="menu"
          id={menuId}
          ref={menu}
          onKeyDown={onKeyDown}
        >
          {shortcuts.map((shortcut) => (
            <button
              type="button"
              role="menuitem"
              class="menu-item"
              key={shortcut.callback_id}
              onClick={() => {
                setOpen(false);
                api
                  .shortcut(state.acting, shortcut.callback_id, message.channel, message.ts)
                  .catch(hooks.fail);
              }}
            >
              {shortcut.name}
              <span class="menu-item-app">{state.app.name}</span>
            </button>
          ))}
          {props.onReply ? (
            <button
              type="button"
              role="menuitem"
              class="menu-item"
              onClick={() => {
                setOpen(false);
                props.onReply?.();
              }}
            >
              {words.replyInThread}
            </button>
          ) : null}
          {[
            [words.editMessage, props.onEdit],
            [words.deleteMessage, props.onDelete],
          ].map(([label, run]) =>
            typeof run === 'function' ? (
              <button
                type="button"
                role="menuitem"
                class="menu-item"
                key={label as string}
                onClick={() => {
                  setOpen(false);
                  run();
                }}
              >
                {label as string}
              </button>
            ) : null,
          )}
        </div>
      ) : null}
    </div>
  );
}

/** How far apart two messages of one sender may be and still show as one group, as in Slack. */
const GROUP_SECONDS = 5 * 60;

/**
 * Whether `message` continues `previous`'s group: the same sender, a few minutes later, neither
 * of them private. Such a message shows no avatar or name of its own.
 */
export function continuesGroup(previous: Message | undefined, message: Message): boolean {
  if (!previous || previous.sender.id !== message.sender.id) return false;
  if (previous.ephemeral || message.ephemeral) return false;
  const gap = Number.parseFloat(message.ts) - Number.parseFloat(previous.ts);
  return gap >= 0 && gap < GROUP_SECONDS;
}

interface MessageProps {
  state: State;
  message: Message;
  values: SurfaceValues;
  hooks: SurfaceHooks;
  onOpenThread?: (ts: string) => void;
  /** Set when the message continues the previous one's group (see continuesGroup). */
  continued?: boolean;
}

export function MessageView(props: MessageProps) {
  return props.message.deleted ? <DeletedMessage {...props} /> : <LiveMessage {...props} />;
}

function LiveMessage(props: MessageProps) {
  const { state, message, values, hooks } = props;
  const [mode, setMode] = useState<'read' | 'edit' | 'delete'>('read');
  const name = message.sender.is_bot
    ? message.sender.name
    : displayName(state, message.sender.id, message.sender.name);
  const me = state.people.find((p) => p.id === state.acting);
  const words = wordsOf(state);
  const blocks = message.blocks ?? [];
  // An edit that changes the blocks shows what the app wrote, as a new message would.
  const version = useMemo(() => contentVersion(blocks), [blocks]);
  const ctx = surfaceContext({
    state,
    surface: 'message',
    container: { type: 'message', channel: message.channel, ts: message.ts },
    blocks,
    values,
    hooks,
    version,
  });
  // Slack writes "(edited)" at the end of the message's text, not under its buttons.
  const edited = message.edited ? <span class="msg-edited"> {words.edited}</span> : undefined;
  const openThread = props.onOpenThread
    ? () => props.onOpenThread?.(message.thread_ts ?? message.ts)
    : undefined;
  const time = formatTime(message.ts, me?.tz, localeOf(state));
  const mine = message.sender.id === state.acting && !message.sender.is_bot && !message.ephemeral;
  // The article keeps its sender and time as its name, shown or not.
  return (
    <article
      class={`msg${message.ephemeral ? ' msg-ephemeral' : ''}${props.continued ? ' msg-continued' : ''}`}
      aria-label={`${name}, ${time}`}
    >
      {props.continued ? (
        <div class="msg-gutter" aria-hidden="true">
          <time class="msg-gutter-time">{time}</time>
        </div>
      ) : (
        <div class={`avatar${message.sender.is_bot ? ' avatar-bot' : ''}`} aria-hidden="true">
          {initials(name)}
        </div>
      )}
      <div class="msg-main">
        {props.continued ? null : (
          <div class="msg-head">
            <span class="msg-sender">{name}</span>
            {message.sender.is_bot ? <span class="badge">APP</span> : null}
            <time class="msg-time">{time}</time>
          </div>
        )}
        {message.ephemeral ? (
          <div class="msg-ephemeral-note">
            <EyeIcon />
            {words.onlyVisibleToYou}
          </div>
        ) : null}
        {mode === 'edit' ? (
          <EditMessage
            state={state}
            message={message}
            hooks={hooks}
            onDone={() => setMode('read')}
          />
        ) : (
          <div class="msg-body">
            {blocks.length ? (
              <Blocks key={version} blocks={blocks} ctx={ctx} trailing={edited} />
            ) : (
              <Mrkdwn text={message.text} ctx={ctx} trailing={edited} />
            )}
          </div>
        )}
        {mode === 'delete' ? (
          <ConfirmDelete
            state={state}
            message={message}
            hooks={hooks}
            onDone={() => setMode('read')}
          />
        ) : null}
        {message.files?.length ? (
          <ul class="msg-files">
            {message.files.map((file) => (
              <li key={file.id}>
                <a href={file.url} target="_blank" rel="noopener noreferrer">
                  <PaperclipIcon />
                  {file.name}
                </a>
                {/^image\/(png|jpeg|gif|webp)$/.test(file.mimetype) ? (
                  <img class="msg-file-image" src={file.url} alt={file.name} loading="lazy" />
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
        <Unfurls state={state} message={message} values={values} hooks={hooks} />
        {message.reply_count > 0 && openThread ? (
          <button type="button" class="msg-replies" onClick={openThread}>
            {words.replies(message.reply_count)}
          </button>
        ) : null}
      </div>
      <MoreActions
        state={state}
        message={message}
        hooks={hooks}
        onReply={openThread}
        {...(mine ? { onEdit: () => setMode('edit'), onDelete: () => setMode('delete') } : {})}
      />
    </article>
  );
}

/** A deleted message whose replies remain: Slack keeps its place, with no content. */
function DeletedMessage(props: {
  state: State;
  message: Message;
  onOpenThread?: (ts: string) => void;
}) {
  const { message } = props;
  const words = wordsOf(props.state);
  return (
    <article class="msg msg-deleted" aria-label={words.deletedMessage}>
      <div class="avatar avatar-deleted" aria-hidden="true" />
      <div class="msg-main">
        <div class="msg-body msg-tombstone">{words.messageDeleted}</div>
        {message.reply_count > 0 && props.onOpenThread ? (
          <button
            type="button"
            class="msg-replies"
            onClick={() => props.onOpenThread?.(message.ts)}
          >
            {words.replies(message.reply_count)}
          </button>
        ) : null}
      </div>
    </article>
  );
}
