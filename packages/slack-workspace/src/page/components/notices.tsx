// Notices from the workspace (such as Slack's timeout error) and the page's own failed calls.
import { CloseIcon, InfoIcon, WarningIcon } from '../icons.js';
import type { Notice } from '../types.js';
import type { PageWords } from '../words.js';

export function Notices(props: {
  notices: Notice[];
  words: PageWords;
  onDismiss: (id: string) => void;
}) {
  const shown = props.notices.slice(-4);
  if (!shown.length) return null;
  return (
    <div class="notices">
      {shown.map((notice) => (
        <div
          key={notice.id}
          class={`notice notice-${notice.tone}`}
          role={notice.tone === 'error' ? 'alert' : 'status'}
        >
          <span class="notice-icon">
            {notice.tone === 'error' ? <WarningIcon /> : <InfoIcon />}
          </span>
          <span class="notice-text">{notice.text}</span>
          <button
            type="button"
            class="icon-button"
            aria-label={props.words.dismiss}
            onClick={() => props.onDismiss(notice.id)}
          >
            <CloseIcon />
          </button>
        </div>
      ))}
    </div>
  );
}
