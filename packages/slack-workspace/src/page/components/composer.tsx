// The message box: Enter sends, Shift+Enter breaks the line; `/` offers the app's commands and
// `@` offers people and the app. Text is sent the way Slack's client sends it: `&`, `<`, `>`
// escaped, links as `<https://…>`, and mentions as `<@U…>` (`<@U…|name>` in a slash command, as
// Slack escapes a command's text).
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { CloseIcon, PaperclipIcon, SendIcon } from '../icons.js';
import type { AppInfo, AttachedFile, Person } from '../types.js';
import type { PageWords } from '../words.js';

export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function mentionName(person: Person): string {
  return person.display_name || person.real_name || person.name;
}

/** A bare http(s) URL, without the punctuation that ends a sentence around it. */
const BARE_URL = /https?:\/\/[^\s<>]*[^\s<>.,;:!?)'"]/g;

/** Wraps the bare links of escaped text as Slack's client does: `<https://…>`. */
export function wrapLinks(escaped: string): string {
  return escaped.replace(BARE_URL, (url) => `<${url}>`);
}

export interface EncodeOptions {
  /** The app's bot, mentionable as `@<its name>`. */
  bot?: { id: string; name: string };
  /** Mentions as `<@U…|name>`, as a slash command's escaped text has them (the default). */
  labels?: boolean;
}

/**
 * Escapes the text and wraps its links, then turns `@name` of a known person (display name or
 * user name) or of the app into Slack's mention syntax. Longest names go first so "@Ann Lee"
 * wins over "@Ann".
 */
export function encodeMessage(text: string, people: Person[], options: EncodeOptions = {}): string {
  const labels = options.labels ?? true;
  const targets: (readonly [string, { id: string; name: string }])[] = people.flatMap(
    (p) =>
      [
        [mentionName(p), p],
        [p.name, p],
      ] as const,
  );
  if (options.bot)
    targets.push([options.bot.name, { id: options.bot.id, name: options.bot.name.toLowerCase() }]);
  const names = targets.filter(([name]) => name).sort((a, b) => b[0].length - a[0].length);
  let out = '';
  let rest = wrapLinks(escapeText(text));
  while (rest) {
    const at = rest.search(/(^|[\s(])@/);
    if (at === -1) break;
    const start = rest[at] === '@' ? at : at + 1;
    out += rest.slice(0, start);
    rest = rest.slice(start + 1);
    const hit = names.find(
      ([name]) =>
        rest.toLowerCase().startsWith(escapeText(name).toLowerCase()) &&
        !/[\p{L}\p{N}_.-]/u.test(rest[escapeText(name).length] ?? ''),
    );
    if (hit) {
      out += labels ? `<@${hit[1].id}|${hit[1].name}>` : `<@${hit[1].id}>`;
      rest = rest.slice(escapeText(hit[0]).length);
    } else {
      out += '@';
    }
  }
  return out + rest;
}

interface Suggestion {
  key: string;
  label: string;
  detail: string;
  insert: string;
}

function suggestionsFor(text: string, caret: number, app: AppInfo, people: Person[]) {
  const before = text.slice(0, caret);
  const command = /^\/(\S*)$/.exec(before);
  if (command) {
    const typed = `/${command[1]}`.toLowerCase();
    return {
      from: 0,
      items: app.commands
        .filter((c) => c.command.toLowerCase().startsWith(typed))
        .map((c) => ({
          key: c.command,
          label: c.command,
          detail: [c.usage_hint, c.description].filter(Boolean).join(' — '),
          insert: `${c.command} `,
        })),
    };
  }
  const mention = /(^|\s)@([^\s@]*)$/.exec(before);
  if (mention) {
    const typed = mention[2]!.toLowerCase();
    const bot: Suggestion[] =
      app.bot_user_id && app.name.toLowerCase().startsWith(typed)
        ? [{ key: app.bot_user_id, label: app.name, detail: 'App', insert: `@${app.name} ` }]
        : [];
    return {
      from: caret - typed.length - 1,
      items: [
        ...people
          .filter((p) =>
            [p.display_name, p.real_name, p.name].some((n) => n?.toLowerCase().startsWith(typed)),
          )
          .map((p) => ({
            key: p.id,
            label: mentionName(p),
            detail: p.real_name && p.real_name !== mentionName(p) ? p.real_name : `@${p.name}`,
            insert: `@${mentionName(p)} `,
          })),
        ...bot,
      ],
    };
  }
  return null;
}

/** A chosen file's bytes in base64, as the workspace's page API takes an attachment. */
async function readAttachment(file: File): Promise<AttachedFile> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return {
    name: file.name,
    mimetype: file.type || 'application/octet-stream',
    content_base64: btoa(binary),
  };
}

export function Composer(props: {
  app: AppInfo;
  people: Person[];
  label: string;
  placeholder: string;
  idPrefix: string;
  words: PageWords;
  onSend: (text: string, file?: AttachedFile) => Promise<void>;
}) {
  const [text, setText] = useState('');
  const [file, setFile] = useState<AttachedFile | undefined>(undefined);
  const picker = useRef<HTMLInputElement>(null);
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const [sending, setSending] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  // Where the caret goes once a chosen suggestion is in the box: set right after that render,
  // before the person's next keystroke can land at the old position.
  const pendingCaret = useRef<number | null>(null);
  useLayoutEffect(() => {
    const at = pendingCaret.current;
    if (at === null || !box.current) return;
    pendingCaret.current = null;
    box.current.focus();
    box.current.setSelectionRange(at, at);
  });
  const found = dismissed ? null : suggestionsFor(text, caret, props.app, props.people);
  const items: Suggestion[] = found?.items ?? [];
  const listId = `${props.idPrefix}-suggestions`;

  const update = (value: string, at: number) => {
    setText(value);
    setCaret(at);
    setActive(0);
    setDismissed(false);
  };

  const choose = (item: Suggestion) => {
    if (!found) return;
    const next = text.slice(0, found.from) + item.insert + text.slice(caret);
    const at = found.from + item.insert.length;
    pendingCaret.current = at;
    update(next, at);
    setDismissed(true);
  };

  const send = async () => {
    const trimmed = text.trim();
    if ((!trimmed && !file) || sending) return;
    setSending(true);
    try {
      const bot = props.app.bot_user_id
        ? { id: props.app.bot_user_id, name: props.app.name }
        : undefined;
      // A message's mentions are bare ids; a command's carry names, as Slack escapes commands.
      const encoded = encodeMessage(trimmed, props.people, {
        ...(bot ? { bot } : {}),
        labels: trimmed.startsWith('/'),
      });
      await props.onSend(encoded, file);
      update('', 0);
      setFile(undefined);
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (items.length) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((active + step + items.length) % items.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        choose(items[active] ?? items[0]!);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        setDismissed(true);
        return;
      }
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  // A file dropped on the composer is attached as one chosen with the paperclip.
  const [dragging, setDragging] = useState(false);
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer?.files?.[0];
    if (dropped) void readAttachment(dropped).then(setFile);
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping is a mouse shortcut; the paperclip button attaches a file from the keyboard
    <div
      class={`composer${dragging ? ' composer-dragging' : ''}`}
      onDragOver={(event) => {
        if (!event.dataTransfer?.types.includes('Files')) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      {items.length ? (
        <div class="suggestions" role="listbox" id={listId} aria-label={props.words.suggestions}>
          {items.map((item, i) => (
            // biome-ignore lint/a11y/useFocusableInteractive: focus stays in the textbox (aria-activedescendant)
            // biome-ignore lint/a11y/useKeyWithClickEvents: the textbox handles the keys
            <div
              key={item.key}
              id={`${listId}-${i}`}
              role="option"
              aria-label={item.label}
              aria-selected={i === active}
              class={`suggestion${i === active ? ' suggestion-active' : ''}`}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(item)}
            >
              <span class="suggestion-label">{item.label}</span>
              <span class="suggestion-detail">{item.detail}</span>
            </div>
          ))}
        </div>
      ) : null}
      <textarea
        ref={box}
        class="composer-input"
        aria-label={props.label}
        aria-autocomplete="list"
        aria-controls={items.length ? listId : undefined}
        aria-activedescendant={items.length ? `${listId}-${active}` : undefined}
        placeholder={props.placeholder}
        rows={1}
        value={text}
        onInput={(event) => {
          const el = event.currentTarget as HTMLTextAreaElement;
          update(el.value, el.selectionStart);
        }}
        onKeyUp={(event) => setCaret((event.currentTarget as HTMLTextAreaElement).selectionStart)}
        onClick={(event) => setCaret((event.currentTarget as HTMLTextAreaElement).selectionStart)}
        onKeyDown={onKeyDown}
      />
      <input
        ref={picker}
        type="file"
        class="composer-file"
        aria-label={props.words.fileToAttach(props.label)}
        hidden
        onChange={(event) => {
          const input = event.currentTarget as HTMLInputElement;
          const chosen = input.files?.[0];
          input.value = '';
          if (chosen) void readAttachment(chosen).then(setFile);
        }}
      />
      {file ? (
        <span class="composer-attachment">
          <PaperclipIcon />
          {file.name}
          <button
            type="button"
            class="composer-attachment-remove"
            aria-label={props.words.removeFile(file.name)}
            onClick={() => setFile(undefined)}
          >
            <CloseIcon />
          </button>
        </span>
      ) : null}
      <button
        type="button"
        class="composer-attach"
        aria-label={props.words.attachFile}
        onClick={() => picker.current?.click()}
      >
        <PaperclipIcon />
      </button>
      <button
        type="button"
        class="composer-send"
        aria-label={props.words.send}
        disabled={(!text.trim() && !file) || sending}
        onClick={() => void send()}
      >
        <SendIcon />
      </button>
    </div>
  );
}
