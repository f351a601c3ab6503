// The page: keeps the workspace state fresh (refetched whenever the server's event stream says
// something changed), and lays out sidebar, conversation, thread panel and modal.
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, getState, subscribe } from './api.js';
import { appTabs, Conversation, type Tab } from './components/conversation.js';
import { Modal } from './components/modal.js';
import { Notices } from './components/notices.js';
import { Sidebar } from './components/sidebar.js';
import { Thread } from './components/thread.js';
import { WorkflowsPanel } from './components/workflows.js';
import { localeOf, type SurfaceHooks, SurfaceValues, wordsOf } from './surface.js';
import type { AttachedFile, Notice, State } from './types.js';
import { readLocation, writeLocation } from './url.js';

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Something went wrong';
}

export function App() {
  const start = useMemo(() => readLocation(), []);
  const [acting, setActing] = useState(start.as);
  const [channelId, setChannelId] = useState(start.channel);
  const [tab, setTab] = useState<Tab>(start.tab ?? 'messages');
  const [thread, setThread] = useState<string | null>(null);
  const [workflows, setWorkflows] = useState(false);
  const [state, setState] = useState<State | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [local, setLocal] = useState<Notice[]>([]);
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(new Set());
  // In a narrow window the conversations are a panel opened from a button (see layout.css).
  const [navOpen, setNavOpen] = useState(false);
  // The conversation on screen, for the page's own notices: they belong where they arose.
  const here = useRef<string | undefined>(undefined);
  // Typed values belong to the person typing them: a new acting person starts clean.
  const values = useMemo(() => new SurfaceValues(), [acting]);
  const request = useRef(0);

  const refresh = useCallback(async () => {
    const n = ++request.current;
    try {
      const next = await getState(acting);
      if (n !== request.current) return;
      setState(next);
      setLoadError(null);
      if (!acting) setActing(next.acting);
    } catch (error) {
      if (n === request.current) setLoadError(messageOf(error));
    }
  }, [acting]);
  const latest = useRef(refresh);
  latest.current = refresh;

  useEffect(() => {
    void refresh();
  }, [refresh]);

  // The open conversations panel closes on Escape and on a click beside it, as a menu does.
  useEffect(() => {
    if (!navOpen) return;
    const beside = (event: MouseEvent) => {
      const target = event.target as Element | null;
      if (!target?.closest('#sidebar, .nav-toggle')) setNavOpen(false);
    };
    const onEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setNavOpen(false);
    };
    document.addEventListener('mousedown', beside);
    document.addEventListener('keydown', onEscape);
    return () => {
      document.removeEventListener('mousedown', beside);
      document.removeEventListener('keydown', onEscape);
    };
  }, [navOpen]);
  useEffect(() => subscribe(() => void latest.current()), []);

  const hooks: SurfaceHooks = useMemo(() => {
    const add = (text: string, tone: Notice['tone']) => {
      const at = Date.now();
      const channel = here.current;
      setLocal((list) => [
        ...list,
        { id: `local-${at}-${list.length}`, at, text, tone, ...(channel ? { channel } : {}) },
      ]);
    };
    return {
      fail: (error: unknown) => add(messageOf(error), 'error'),
      notify: (text: string) => add(text, 'info'),
    };
  }, []);

  // Sign in with Slack asks the workspace who this browser is: the acting person, once this page
  // has signed it in as them.
  const unsigned = state?.signed_in === false ? state.acting : undefined;
  useEffect(() => {
    if (unsigned) api.signIn(unsigned).catch(hooks.fail);
  }, [unsigned, hooks]);

  const channel = state
    ? (state.channels.find((c) => c.id === channelId) ??
      state.channels.find((c) => c.kind === 'channel') ??
      state.channels[0])
    : undefined;

  useEffect(() => {
    if (state) writeLocation({ as: state.acting, channel: channel?.id, tab });
  }, [state?.acting, channel?.id, tab]);

  // The page speaks the acting person's language, as Slack does its own interface.
  const locale = state ? localeOf(state) : undefined;
  useEffect(() => {
    if (locale) document.documentElement.lang = locale;
  }, [locale]);

  here.current = channel?.id;
  const isApp = channel?.kind === 'app';
  // A tab the manifest turned off is not there to open: the first one that is, instead.
  const tabs = state ? appTabs(state) : [];
  const openTab = tabs.includes(tab) ? tab : tabs[0];
  useEffect(() => {
    if (acting && isApp && openTab) api.homeOpened(acting, openTab).catch(hooks.fail);
  }, [acting, isApp, openTab, hooks]);

  // Until the chosen person's own view has arrived, none of the previous person's is shown: a
  // message typed or a button clicked meanwhile would go out in the previous person's name.
  if (!state || !channel || (acting !== undefined && state.acting !== acting)) {
    return (
      <div class="loading" role="status">
        {loadError ? `Cannot reach the workspace: ${loadError}` : 'Loading the workspace…'}
      </div>
    );
  }

  const all = state.messages[channel.id] ?? [];
  const parent = thread ? all.find((m) => m.ts === thread) : undefined;
  // A notice shows in the conversation it arose in (or everywhere, when it arose in none), until
  // dismissed: carried to every channel, old notices pushed the messages out of sight.
  const notices = [...state.notices, ...local].filter(
    (n) => !dismissed.has(n.id) && (!n.channel || n.channel === channel.id),
  );
  const top = state.modals[state.modals.length - 1];
  const send = (threadTs?: string) => async (text: string, file?: AttachedFile) => {
    try {
      await api.message(state.acting, channel.id, text, threadTs, file);
    } catch (error) {
      hooks.fail(error);
      throw error;
    }
    void refresh();
  };

  return (
    <div class={`app${navOpen ? ' nav-open' : ''}`} lang={locale}>
      <Sidebar
        state={state}
        channel={channel.id}
        hooks={hooks}
        onActing={(id) => {
          setActing(id);
          setThread(null);
        }}
        onChannel={(id) => {
          setChannelId(id);
          setThread(null);
          setNavOpen(false);
        }}
        onWorkflows={() => {
          setWorkflows((open) => !open);
          setThread(null);
        }}
      />
      <div class="center">
        <Conversation
          state={state}
          channel={channel}
          tab={tab}
          values={values}
          hooks={hooks}
          onTab={setTab}
          onSend={send()}
          onOpenThread={setThread}
          navOpen={navOpen}
          onNav={() => setNavOpen(!navOpen)}
          banner={
            <Notices
              notices={notices}
              words={wordsOf(state)}
              onDismiss={(id) => setDismissed((set) => new Set([...set, id]))}
            />
          }
        />
      </div>
      {workflows ? (
        <WorkflowsPanel
          state={state}
          channel={channel.kind === 'channel' ? channel.id : (state.channels[0]?.id ?? '')}
          hooks={hooks}
          onClose={() => setWorkflows(false)}
        />
      ) : parent ? (
        <Thread
          state={state}
          parent={parent}
          replies={all.filter((m) => m.thread_ts === parent.ts && m.ts !== parent.ts)}
          values={values}
          hooks={hooks}
          onSend={send(parent.ts)}
          onClose={() => setThread(null)}
        />
      ) : null}
      {top ? (
        <Modal
          key={top.id}
          state={state}
          view={top}
          depth={state.modals.length}
          values={values}
          hooks={hooks}
        />
      ) : null}
    </div>
  );
}
