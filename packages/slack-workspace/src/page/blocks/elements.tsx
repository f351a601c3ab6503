// Interactive and image elements. Each keeps what the person chose in the surface's ValueStore,
// and sends a block action when Slack would: always for buttons and overflow menus, and for the
// other elements unless they sit in a modal's input block without `dispatch_action`.
import { useState } from 'preact/hooks';
import { ExternalIcon, MoreHorizontalIcon } from '../icons.js';
import type { BlockAction, BlockElement, OptionObject } from '../types.js';
import { useConfirm } from './confirm.js';
import { domId } from './context.js';
import {
  actionTs,
  change,
  type ElementProps,
  fieldAria,
  safeUrl,
  useElementValue,
} from './element-props.js';
import { SelectElement } from './select.js';
import { InlineText, plain, Text } from './text.js';

function ButtonElement(props: ElementProps) {
  const { el, ctx } = props;
  const [dialog, guard] = useConfirm(ctx);
  const style = el.style === 'primary' || el.style === 'danger' ? el.style : undefined;
  const url = safeUrl(el.url);
  const click = () =>
    guard(el.confirm, () => {
      // Slack both opens a link button's URL and sends its action.
      if (url) window.open(url, '_blank', 'noopener,noreferrer');
      ctx.onAction({
        type: 'button',
        action_id: props.actionId,
        block_id: props.blockId,
        action_ts: actionTs(),
        text: el.text as BlockAction['text'],
        ...(typeof el.value === 'string' ? { value: el.value } : {}),
        ...(style ? { style } : {}),
        ...(url ? { url } : {}),
      });
    });
  const label = typeof el.accessibility_label === 'string' ? el.accessibility_label : undefined;
  return (
    <>
      <button
        type="button"
        class={`bk-button${style ? ` bk-button-${style}` : ''}`}
        aria-label={label}
        onClick={click}
      >
        <InlineText text={el.text as BlockAction['text']} ctx={ctx} />
        {url ? <ExternalIcon /> : null}
      </button>
      {dialog}
    </>
  );
}

function OverflowElement(props: ElementProps) {
  const { el, ctx } = props;
  const [open, setOpen] = useState(false);
  const [dialog, guard] = useConfirm(ctx);
  const menuId = domId(ctx, props.blockId, props.actionId, 'menu');
  const options = Array.isArray(el.options) ? (el.options as OptionObject[]) : [];
  return (
    <span class="bk-overflow">
      <button
        type="button"
        class="bk-button bk-overflow-button"
        aria-label="More options"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen(!open)}
      >
        <MoreHorizontalIcon />
      </button>
      {open ? (
        <div class="bk-menu" role="menu" id={menuId}>
          {options.map((option) => (
            <button
              type="button"
              role="menuitem"
              class="bk-menu-item"
              key={option.value}
              onClick={() => {
                setOpen(false);
                guard(el.confirm, () => {
                  const url = safeUrl(option.url);
                  if (url) window.open(url, '_blank', 'noopener,noreferrer');
                  change(
                    { ...props, dispatch: true },
                    { type: 'overflow', selected_option: option },
                  );
                });
              }}
            >
              <InlineText text={option.text} ctx={ctx} />
            </button>
          ))}
        </div>
      ) : null}
      {dialog}
    </span>
  );
}

function TextInputElement(props: ElementProps) {
  const { el } = props;
  const type = el.type;
  const [current, set] = useElementValue(props);
  const value = current?.value ?? '';
  const placeholder = plain(el.placeholder as BlockAction['text']) || undefined;
  const record = (next: string, send: boolean) =>
    set({ type, value: next === '' ? null : next }, send);
  // dispatch_action_config on_character_entered: each change is sent, as Slack does.
  const triggers = (el.dispatch_action_config as { trigger_actions_on?: unknown } | undefined)
    ?.trigger_actions_on;
  const everyCharacter =
    props.dispatch && Array.isArray(triggers) && triggers.includes('on_character_entered');
  const onInput = (event: Event) =>
    record((event.currentTarget as HTMLInputElement | HTMLTextAreaElement).value, everyCharacter);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && props.dispatch && !el.multiline) {
      event.preventDefault();
      record((event.currentTarget as HTMLInputElement).value, true);
    }
  };
  const common = {
    ...fieldAria(props),
    class: 'bk-input',
    value,
    placeholder,
    onInput,
    onKeyDown,
    'aria-label': props.inputId ? undefined : placeholder,
  };
  if (type === 'plain_text_input' && el.multiline) {
    return (
      <textarea
        {...common}
        rows={4}
        minLength={typeof el.min_length === 'number' ? el.min_length : undefined}
        maxLength={typeof el.max_length === 'number' ? el.max_length : undefined}
      />
    );
  }
  if (type === 'number_input') {
    return (
      <input
        {...common}
        type="text"
        inputMode={el.is_decimal_allowed ? 'decimal' : 'numeric'}
        pattern={el.is_decimal_allowed ? '-?[0-9]*[.,]?[0-9]*' : '-?[0-9]*'}
      />
    );
  }
  const lengths = {
    minLength: typeof el.min_length === 'number' ? el.min_length : undefined,
    maxLength: typeof el.max_length === 'number' ? el.max_length : undefined,
  };
  if (type === 'email_text_input') return <input {...common} {...lengths} type="email" />;
  if (type === 'url_text_input') return <input {...common} {...lengths} type="url" />;
  return <input {...common} {...lengths} type="text" />;
}

function ChoiceElement(props: ElementProps) {
  const { el, ctx } = props;
  const multiple = el.type === 'checkboxes';
  const options = Array.isArray(el.options) ? (el.options as OptionObject[]) : [];
  const [current, set] = useElementValue(props);
  const chosen = multiple
    ? (current?.selected_options ?? []).map((o) => o.value)
    : current?.selected_option
      ? [current.selected_option.value]
      : [];
  const name = domId(ctx, props.blockId, props.actionId);
  const pick = (option: OptionObject, on: boolean) => {
    if (multiple) {
      const next = on
        ? [...chosen.filter((v) => v !== option.value), option.value]
        : chosen.filter((v) => v !== option.value);
      const selected = options.filter((o) => next.includes(o.value));
      set({ type: 'checkboxes', selected_options: selected });
    } else {
      set({ type: 'radio_buttons', selected_option: option });
    }
  };
  const choices = options.map((option) => (
    <label class="bk-choice" key={option.value}>
      <input
        type={multiple ? 'checkbox' : 'radio'}
        name={name}
        value={option.value}
        checked={chosen.includes(option.value)}
        onChange={(event) => pick(option, (event.currentTarget as HTMLInputElement).checked)}
      />
      <span>
        <InlineText text={option.text} ctx={ctx} />
        {option.description ? (
          <span class="bk-choice-description">
            <InlineText text={option.description} ctx={ctx} />
          </span>
        ) : null}
      </span>
    </label>
  ));
  return multiple ? (
    <fieldset class="bk-choices" aria-labelledby={props.labelId} aria-describedby={props.errorId}>
      {choices}
    </fieldset>
  ) : (
    <div
      class="bk-choices"
      role="radiogroup"
      aria-labelledby={props.labelId}
      aria-describedby={props.errorId}
    >
      {choices}
    </div>
  );
}

function PickerElement(props: ElementProps) {
  const { el } = props;
  const isDate = el.type === 'datepicker';
  const [current, set] = useElementValue(props);
  const value = (isDate ? current?.selected_date : current?.selected_time) ?? '';
  const placeholder = plain(el.placeholder as BlockAction['text']) || undefined;
  return (
    <input
      {...fieldAria(props)}
      class="bk-input bk-picker"
      type={isDate ? 'date' : 'time'}
      value={value}
      aria-label={props.inputId ? undefined : placeholder || (isDate ? 'Date' : 'Time')}
      onChange={(event) => {
        const next = (event.currentTarget as HTMLInputElement).value || null;
        set(
          isDate
            ? { type: 'datepicker', selected_date: next }
            : { type: 'timepicker', selected_time: next },
        );
      }}
    />
  );
}

export function ImageElement({ el }: { el: BlockElement }) {
  const src = safeUrl(el.image_url);
  const alt = typeof el.alt_text === 'string' ? el.alt_text : '';
  if (!src) return <span class="bk-image-missing">{alt}</span>;
  return <img class="bk-image-el" src={src} alt={alt} loading="lazy" />;
}

function FileInputElement(props: ElementProps) {
  return (
    <div class="bk-file">
      <input {...fieldAria(props)} type="file" disabled />
      <span class="bk-hint">File uploads are not available in the sandbox.</span>
    </div>
  );
}

export function Element(props: ElementProps) {
  const { el, ctx } = props;
  switch (el.type) {
    case 'button':
      return <ButtonElement {...props} />;
    case 'overflow':
      return <OverflowElement {...props} />;
    case 'plain_text_input':
    case 'number_input':
    case 'email_text_input':
    case 'url_text_input':
      return <TextInputElement {...props} />;
    case 'checkboxes':
    case 'radio_buttons':
      return <ChoiceElement {...props} />;
    case 'datepicker':
    case 'timepicker':
      return <PickerElement {...props} />;
    case 'image':
      return <ImageElement el={el} />;
    case 'file_input':
      return <FileInputElement {...props} />;
    case 'static_select':
    case 'multi_static_select':
    case 'external_select':
    case 'multi_external_select':
    case 'users_select':
    case 'multi_users_select':
    case 'conversations_select':
    case 'multi_conversations_select':
    case 'channels_select':
    case 'multi_channels_select':
      return <SelectElement {...props} />;
    case 'plain_text':
    case 'mrkdwn':
      return <Text text={el as unknown as BlockAction['text']} ctx={ctx} />;
    default:
      return <span class="bk-unsupported">[{el.type}]</span>;
  }
}
