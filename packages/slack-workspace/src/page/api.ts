// The page's calls to the workspace server (its JSON API under /workspace-api/).
import type {
  AttachedFile,
  BlockAction,
  Container,
  InputSource,
  OptionsAnswer,
  State,
  StateValues,
  Trigger,
} from './types.js';

const BASE = '/workspace-api';

export class ApiError extends Error {}

async function post<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(`${BASE}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  let answer: { ok?: boolean; error?: string } & T;
  try {
    answer = await response.json();
  } catch {
    throw new ApiError(`The workspace answered ${response.status} without JSON`);
  }
  if (!response.ok || answer.ok === false) {
    throw new ApiError(answer.error ?? `The workspace answered ${response.status}`);
  }
  return answer;
}

export async function getState(as: string | undefined): Promise<State> {
  const query = as ? `?as=${encodeURIComponent(as)}` : '';
  const response = await fetch(`${BASE}/state${query}`);
  const answer = (await response.json()) as State & { ok?: boolean; error?: string };
  if (!response.ok || answer.ok === false) {
    throw new ApiError(answer.error ?? `The workspace answered ${response.status}`);
  }
  return answer;
}

export const api = {
  workflowCreate: (
    as: string,
    workflow: {
      name: string;
      channel: string;
      trigger: Trigger;
      steps: { callback_id: string; inputs: Record<string, InputSource> }[];
    },
  ) => post<{ id: string }>('workflow-create', { as, ...workflow }),
  workflowStart: (as: string, id: string, form: Record<string, unknown>) =>
    post<{ run: string }>('workflow-start', { as, id, form }),
  message: (as: string, channel: string, text: string, thread_ts?: string, file?: AttachedFile) =>
    post('message', {
      as,
      channel,
      text,
      ...(thread_ts ? { thread_ts } : {}),
      ...(file ? { file } : {}),
    }),
  editMessage: (as: string, channel: string, ts: string, text: string) =>
    post('message-edit', { as, channel, ts, text }),
  deleteMessage: (as: string, channel: string, ts: string) =>
    post('message-delete', { as, channel, ts }),
  /** The acting person's language, as users.info reports it. */
  locale: (as: string, locale: string) => post('locale', { as, locale }),
  action: (as: string, container: Container, action: BlockAction, state?: StateValues) =>
    post('action', { as, container, action, ...(state ? { state } : {}) }),
  options: (
    as: string,
    container: Container,
    query: { action_id: string; block_id: string; value: string },
  ) => post<OptionsAnswer>('options', { as, container, ...query }),
  viewSubmit: (as: string, view_id: string, values: StateValues) =>
    post<{ errors?: Record<string, string> }>('view-submit', { as, view_id, values }),
  viewClose: (as: string, view_id: string) => post('view-close', { as, view_id }),
  shortcut: (as: string, callback_id: string, channel: string, ts: string) =>
    post('shortcut', { as, callback_id, channel, ts }),
  homeOpened: (as: string, tab: 'home' | 'messages') => post('home-opened', { as, tab }),
  /**
   * Signs this browser in to the workspace as the acting person, so that Sign in with Slack sees
   * them: a POST from this page, the only way the workspace sets its sign-in cookie.
   */
  signIn: (as: string) => post('sign-in', { as }),
  /** The digest answers with how many daily DMs it sent. */
  control: (name: 'digest' | 'reset') => post<{ sent?: number }>(`control/${name}`, {}),
};

/** Calls `onChange` whenever the server says something changed; returns the unsubscribe. */
export function subscribe(onChange: (version: number) => void): () => void {
  const source = new EventSource(`${BASE}/events`);
  source.onmessage = (event) => {
    try {
      const data = JSON.parse(event.data) as { version?: unknown };
      if (typeof data.version === 'number') onChange(data.version);
    } catch {
      onChange(Number.NaN);
    }
  };
  return () => source.close();
}
