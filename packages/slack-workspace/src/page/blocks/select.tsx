// Every select menu (static, external, users, conversations, channels, single and multi) as one
// searchable combobox: the kinds differ only in where options come from and in the field the
// chosen value is reported under.
import { useEffect, useRef, useState } from 'preact/hooks';
import { CheckIcon, CloseIcon } from '../icons.js';
import type { BlockAction, ElementValue, OptionGroup, OptionObject } from '../types.js';
import { domId, type RenderContext } from './context.js';
import { type ElementProps, useElementValue } from './element-props.js';
import { plain } from './text.js';

interface Group {
  label?: string;
  options: OptionObject[];
}

type Kind = 'static' | 'external' | 'users' | 'conversations' | 'channels';

function kindOf(type: string): Kind {
  const base = type.replace(/^multi_/, '').replace(/_select$/, '');
  return base === 'static' ||
    base === 'external' ||
    base === 'users' ||
    base === 'conversations' ||
    base === 'channels'
    ? base
    : 'static';
}

function option(text: string, value: string): OptionObject {
  return { text: { type: 'plain_text', text }, value };
}

function groupsOf(options: unknown, optionGroups: unknown): Group[] {
  if (Array.isArray(optionGroups)) {
    return (optionGroups as OptionGroup[]).map((g) => ({
      label: plain(g.label),
      options: Array.isArray(g.options) ? g.options : [],
    }));
  }
  return [{ options: Array.isArray(options) ? (options as OptionObject[]) : [] }];
}

function localOptions(kind: Kind, ctx: RenderContext): OptionObject[] {
  if (kind === 'users') return ctx.people.map((p) => option(p.name, p.id));
  return ctx.channels.map((c) => option(`#${c.name}`, c.id));
}

/** The selection as option objects, whatever field the element keeps it in. */
function selectionOf(kind: Kind, value: ElementValue | undefined, ctx: RenderContext) {
  if (!value) return [];
  if (kind === 'static' || kind === 'external') {
    if (value.selected_options) return value.selected_options;
    return value.selected_option ? [value.selected_option] : [];
  }
  const ids =
    value.selected_users ??
    value.selected_conversations ??
    value.selected_channels ??
    [value.selected_user ?? value.selected_conversation ?? value.selected_channel].filter(
      (id): id is string => typeof id === 'string',
    );
  const name = (id: string) =>
    kind === 'users' ? ctx.userName(id) : `#${ctx.channelName(id) ?? id}`;
  return ids.map((id) => option(name(id) ?? id, id));
}

function report(type: string, kind: Kind, multi: boolean, chosen: OptionObject[]): ElementValue {
  const ids = chosen.map((o) => o.value);
  if (kind === 'static' || kind === 'external') {
    return multi
      ? { type, selected_options: chosen }
      : { type, selected_option: chosen[0] ?? null };
  }
  const field = kind === 'users' ? 'user' : kind === 'channels' ? 'channel' : 'conversation';
  return multi
    ? ({ type, [`selected_${field}s`]: ids } as ElementValue)
    : ({ type, [`selected_${field}`]: ids[0] ?? null } as ElementValue);
}

export function SelectElement(props: ElementProps) {
  const { el, ctx } = props;
  const type = el.type;
  const kind = kindOf(type);
  const multi = type.startsWith('multi_');
  const [current, set] = useElementValue(props);
  const chosen = selectionOf(kind, current, ctx);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [loaded, setLoaded] = useState<Group[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const request = useRef(0);
  const minQuery = typeof el.min_query_length === 'number' ? el.min_query_length : 3;
  const listId = domId(ctx, props.blockId, props.actionId, 'options');

  useEffect(() => {
    if (kind !== 'external' || !open || query.length < minQuery) return;
    const n = ++request.current;
    ctx
      .loadOptions({ action_id: props.actionId, block_id: props.blockId, value: query })
      .then((answer) => {
        if (n !== request.current) return;
        setLoadError(null);
        setLoaded(groupsOf(answer.options, answer.option_groups));
      })
      .catch((error: unknown) => {
        if (n !== request.current) return;
        setLoadError(error instanceof Error ? error.message : 'Could not load options');
      });
  }, [kind, open, query, minQuery]);

  const all: Group[] =
    kind === 'static'
      ? groupsOf(el.options, el.option_groups)
      : kind === 'external'
        ? query.length >= minQuery
          ? (loaded ?? [])
          : []
        : [{ options: localOptions(kind, ctx) }];
  const needle = query.trim().toLowerCase();
  const visible = all
    .map((g) => ({
      ...g,
      // External options are already the app's answer to the query.
      options:
        kind === 'external'
          ? g.options
          : g.options.filter((o) => plain(o.text).toLowerCase().includes(needle)),
    }))
    .filter((g) => g.options.length > 0);
  const flat = visible.flatMap((g) => g.options);
  const optionId = (i: number) => `${listId}-${i}`;

  const choose = (picked: OptionObject) => {
    const already = chosen.some((o) => o.value === picked.value);
    const next = multi
      ? already
        ? chosen.filter((o) => o.value !== picked.value)
        : [...chosen, picked]
      : [picked];
    setQuery('');
    if (!multi) setOpen(false);
    set(report(type, kind, multi, next));
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => (flat.length ? (a + step + flat.length) % flat.length : 0));
    } else if (event.key === 'Enter' && open && flat[active]) {
      event.preventDefault();
      choose(flat[active]!);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
    } else if (event.key === 'Backspace' && multi && query === '' && chosen.length) {
      choose(chosen[chosen.length - 1]!);
    }
  };

  const placeholder = plain(el.placeholder as BlockAction['text']) || 'Select an item';
  const single = !multi && chosen[0] ? plain(chosen[0].text) : '';
  let index = -1;
  const status =
    kind === 'external' && query.length < minQuery
      ? `Type at least ${minQuery} character${minQuery === 1 ? '' : 's'} to search`
      : loadError
        ? loadError
        : flat.length === 0
          ? 'No matches'
          : null;

  return (
    <div class={`bk-select${open ? ' bk-select-open' : ''}`}>
      {multi && chosen.length > 0 ? (
        <ul class="bk-chips" aria-label="Selected">
          {chosen.map((o) => (
            <li class="bk-chip" key={o.value}>
              {plain(o.text)}
              <button
                type="button"
                class="bk-chip-remove"
                aria-label={`Remove ${plain(o.text)}`}
                onClick={() => choose(o)}
              >
                <CloseIcon />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div class="bk-select-field">
        <span class="bk-select-sizer" aria-hidden="true">
          {single || placeholder}
        </span>
        <input
          id={props.inputId}
          size={1}
          class="bk-input bk-select-input"
          role="combobox"
          aria-label={props.inputId ? undefined : placeholder}
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-invalid={props.errorId ? true : undefined}
          aria-describedby={props.errorId}
          aria-activedescendant={open && flat[active] ? optionId(active) : undefined}
          autocomplete="off"
          placeholder={single || placeholder}
          value={open ? query : single}
          onFocus={() => setOpen(true)}
          onClick={() => setOpen(true)}
          onBlur={() => {
            setOpen(false);
            setQuery('');
          }}
          onInput={(event) => {
            setQuery((event.currentTarget as HTMLInputElement).value);
            setActive(0);
            setOpen(true);
          }}
          onKeyDown={onKeyDown}
        />
      </div>
      {open ? (
        <div class="bk-listbox" role="listbox" id={listId} aria-multiselectable={multi}>
          {visible.map((g, gi) => (
            // biome-ignore lint/a11y/useSemanticElements: a fieldset cannot sit inside a listbox
            <div role="group" aria-label={g.label} key={gi} class="bk-option-group">
              {g.label ? (
                <div class="bk-group-label" aria-hidden="true">
                  {g.label}
                </div>
              ) : null}
              {g.options.map((o) => {
                index++;
                const i = index;
                const selected = chosen.some((c) => c.value === o.value);
                // Focus stays in the combobox (aria-activedescendant), as the ARIA combobox
                // pattern asks, so options need no tabindex or key handlers of their own.
                return (
                  // biome-ignore lint/a11y/useFocusableInteractive: see above
                  // biome-ignore lint/a11y/useKeyWithClickEvents: see above
                  <div
                    key={o.value}
                    id={optionId(i)}
                    role="option"
                    aria-selected={selected}
                    class={`bk-option${i === active ? ' bk-option-active' : ''}`}
                    onMouseDown={(event) => event.preventDefault()}
                    onClick={() => choose(o)}
                  >
                    <span class="bk-option-text">
                      {plain(o.text)}
                      {o.description ? (
                        <span class="bk-option-description">{plain(o.description)}</span>
                      ) : null}
                    </span>
                    {selected ? <CheckIcon /> : null}
                  </div>
                );
              })}
            </div>
          ))}
          {status ? <div class="bk-option-status">{status}</div> : null}
        </div>
      ) : null}
    </div>
  );
}
