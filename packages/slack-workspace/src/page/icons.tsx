// The page's own icons, drawn as inline SVG on a 16×16 grid in the text colour. Emoji or symbol
// characters would depend on the fonts of the machine (without an emoji font they show as empty
// boxes); these draw the same everywhere. Each is decorative: the control around it is named.
import type { ComponentChildren } from 'preact';

function Icon(props: { children: ComponentChildren; filled?: boolean; class?: string }) {
  return (
    <svg
      class={`icon${props.class ? ` ${props.class}` : ''}`}
      viewBox="0 0 16 16"
      width="16"
      height="16"
      aria-hidden="true"
      focusable="false"
      fill={props.filled ? 'currentColor' : 'none'}
      stroke={props.filled ? 'none' : 'currentColor'}
      stroke-width="1.6"
      stroke-linecap="round"
      stroke-linejoin="round"
    >
      {props.children}
    </svg>
  );
}

export function CloseIcon() {
  return (
    <Icon>
      <path d="M4 4l8 8M12 4l-8 8" />
    </Icon>
  );
}

export function PaperclipIcon() {
  return (
    <Icon>
      <path d="M10.5 4.8L5.9 9.4a1.5 1.5 0 0 0 2.1 2.1l4.9-4.9a3 3 0 0 0-4.2-4.2L3.8 7.3a4.4 4.4 0 0 0 6.2 6.2l3.4-3.4" />
    </Icon>
  );
}

export function SendIcon() {
  return (
    <Icon filled>
      <path d="M2 2.6l12.4 5.1c.3.1.3.5 0 .6L2 13.4c-.3.1-.6-.2-.5-.5L3.3 8.6h5.2V7.4H3.3L1.5 3.1c-.1-.3.2-.6.5-.5z" />
    </Icon>
  );
}

export function MenuIcon() {
  return (
    <Icon>
      <path d="M2.5 4h11M2.5 8h11M2.5 12h11" />
    </Icon>
  );
}

export function MoreVerticalIcon() {
  return (
    <Icon filled>
      <circle cx="8" cy="3.5" r="1.4" />
      <circle cx="8" cy="8" r="1.4" />
      <circle cx="8" cy="12.5" r="1.4" />
    </Icon>
  );
}

export function MoreHorizontalIcon() {
  return (
    <Icon filled>
      <circle cx="3.5" cy="8" r="1.4" />
      <circle cx="8" cy="8" r="1.4" />
      <circle cx="12.5" cy="8" r="1.4" />
    </Icon>
  );
}

export function WarningIcon() {
  return (
    <Icon class="icon-warning">
      <path d="M8 2.2l6.2 11H1.8z" />
      <path d="M8 6.6v3" />
      <circle cx="8" cy="11.5" r="0.5" />
    </Icon>
  );
}

export function InfoIcon() {
  return (
    <Icon class="icon-info">
      <circle cx="8" cy="8" r="6.2" />
      <path d="M8 7.4v4" />
      <circle cx="8" cy="5" r="0.5" />
    </Icon>
  );
}

export function EyeIcon() {
  return (
    <Icon>
      <path d="M1.5 8c1.8-3.2 4-4.6 6.5-4.6s4.7 1.4 6.5 4.6c-1.8 3.2-4 4.6-6.5 4.6S3.3 11.2 1.5 8z" />
      <circle cx="8" cy="8" r="1.9" />
    </Icon>
  );
}

export function ExternalIcon() {
  return (
    <Icon>
      <path d="M9.5 2.5h4v4M13.5 2.5L7.5 8.5M11.5 9.5v3.2c0 .4-.4.8-.8.8H3.3c-.4 0-.8-.4-.8-.8V5.3c0-.4.4-.8.8-.8h3.2" />
    </Icon>
  );
}

export function CheckIcon() {
  return (
    <Icon>
      <path d="M3 8.6l3.2 3.2L13 4.6" />
    </Icon>
  );
}

export function DotIcon() {
  return (
    <Icon filled>
      <circle cx="8" cy="8" r="4" />
    </Icon>
  );
}
