// The open conversation: its header (with the Home and Messages tabs the manifest enables for the
// app's conversation), the message list or the App Home, and the composer (none in a read-only
// Messages tab, where Slack says writing is turned off).
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { Blocks } from '../blocks/blocks.js';
import { MenuIcon } from '../icons.js';
import { type SurfaceHooks, type SurfaceValues, surfaceContext, wordsOf } from '../surface.js';
import type { AttachedFile, Channel, Message, State } from '../types.js';
import { Composer } from './composer.js';
import { continuesGroup, MessageView } from './message.js';

export type Tab = 'home' | 'messages';

function MessageList(props: {
  state: State;
  messages: Message[];
  values: SurfaceValues;
  hooks: SurfaceHooks;
  onOpenThread: (ts: string) => void;
}) {
  const list = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  // Whether the list is scrolled to its end, as a chat stays while the person has not scrolled up.
  const pinned = useRef(true);
  const last = props.messages[props.messages.length - 1]?.ts;
  const toEnd = () => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  };
  // A new post: to the end, wherever the person was.
  useEffect(() => {
    pinned.current = true;
    toEnd();
  }, [last]);
  // A post that grows once shown (an answer replaced by the booked expense, an image loaded, an
  // edit) is followed too, while the list is at its end: watching only the newest post's id left
  // such a post cut off under the composer.
  useEffect(() => {
    if (!content.current || typeof ResizeObserver === 'undefined') return;
    const watcher = new ResizeObserver(() => {
      if (pinned.current) toEnd();
    });
    watcher.observe(content.current);
    return () => watcher.disconnect();
  }, []);
  const onScroll = () => {
    const el = list.current;
    if (el) pinned.current = el.scrollTop + el.clientHeight >= el.scrollHeight - 24;
  };
  return (
    <div class="messages" ref={list} onScroll={onScroll}>
      <div class="messages-content" ref={content}>
        {props.messages.length === 0 ? (
          <p class="empty">No messages yet. Say hello, or type / to use the app.</p>
        ) : null}
        {props.messages.map((m, i) => (
          <MessageView
            key={`${m.ts}-${m.ephemeral ? 'e' : 'm'}`}
            state={props.state}
            message={m}
            continued={continuesGroup(props.messages[i - 1], m)}
            values={props.values}
            hooks={props.hooks}
            onOpenThread={props.onOpenThread}
          />
        ))}
      </div>
    </div>
  );
}

function Home(props: { state: State; values: SurfaceValues; hooks: SurfaceHooks }) {
  const { state } = props;
  const home = state.home;
  if (!home) {
    return <p class="empty">{state.app.name} has not published a Home tab for you yet.</p>;
  }
  const ctx = surfaceContext({
    state,
    surface: 'home',
    container: { type: 'view', view_id: home.id },
    blocks: home.blocks,
    values: props.values,
    hooks: props.hooks,
    version: home.hash,
  });
  // Each publish is a new view: it shows what the app sent, nothing carried from the last one.
  return (
    <div class="home">
      <Blocks key={home.hash} blocks={home.blocks} ctx={ctx} />
    </div>
  );
}

/** The App Home tabs the manifest enables (both when it says nothing). */
export function appTabs(state: State): Tab[] {
  const tabs: Tab[] = [];
  if (state.app_home.home) tabs.push('home');
  if (state.app_home.messages !== 'off') tabs.push('messages');
  return tabs;
}

export function Conversation(props: {
  state: State;
  channel: Channel;
  tab: Tab;
  values: SurfaceValues;
  hooks: SurfaceHooks;
  onTab: (tab: Tab) => void;
  onSend: (text: string, file?: AttachedFile) => Promise<void>;
  onOpenThread: (ts: string) => void;
  /** Whether the conversations panel is open, in a narrow window where a button opens it. */
  navOpen: boolean;
  onNav: () => void;
  /** Shown under the header, above the messages (the notices). */
  banner?: ComponentChildren;
}) {
  const { state, channel, values, hooks } = props;
  const isApp = channel.kind === 'app';
  const tabs = appTabs(state);
  const tab = tabs.includes(props.tab) ? props.tab : (tabs[0] ?? 'messages');
  const showHome = isApp && tab === 'home';
  const readOnly = isApp && state.app_home.messages !== 'writable';
  const messages = (state.messages[channel.id] ?? []).filter(
    (m) => !m.thread_ts || m.thread_ts === m.ts,
  );
  const title = isApp ? state.app.name : `#${channel.name}`;
  const words = wordsOf(state);
  const panel = showHome ? (
    <Home state={state} values={values} hooks={hooks} />
  ) : (
    <MessageList
      state={state}
      messages={messages}
      values={values}
      hooks={hooks}
      onOpenThread={props.onOpenThread}
    />
  );
  const tabButton = (id: Tab, label: string) => (
    <button
      type="button"
      role="tab"
      id={`tab-${id}`}
      class={`tab${tab === id ? ' tab-current' : ''}`}
      aria-selected={tab === id}
      aria-controls="conversation-panel"
      tabIndex={tab === id ? 0 : -1}
      onClick={() => props.onTab(id)}
    >
      {label}
    </button>
  );
  return (
    <main class="conversation">
      <header class="conversation-head">
        <button
          type="button"
          class="icon-button nav-toggle"
          aria-label={words.conversations}
          aria-controls="sidebar"
          aria-expanded={props.navOpen}
          onClick={props.onNav}
        >
          <MenuIcon />
        </button>
        <h1 class="conversation-title">{title}</h1>
        {isApp ? (
          <div
            class="tabs"
            role="tablist"
            aria-label={words.tabs(state.app.name)}
            onKeyDown={(event) => {
              if ((event.key === 'ArrowRight' || event.key === 'ArrowLeft') && tabs.length > 1) {
                props.onTab(tab === 'home' ? 'messages' : 'home');
              }
            }}
          >
            {tabs.includes('home') ? tabButton('home', words.home) : null}
            {tabs.includes('messages') ? tabButton('messages', words.messages) : null}
          </div>
        ) : null}
      </header>
      {props.banner}
      {isApp ? (
        <div
          class="conversation-panel"
          id="conversation-panel"
          role="tabpanel"
          aria-labelledby={`tab-${tab}`}
        >
          {panel}
        </div>
      ) : (
        <div class="conversation-panel">{panel}</div>
      )}
      {showHome ? null : readOnly ? (
        <p class="composer-off" role="note">
          {words.composerOff}
        </p>
      ) : (
        <Composer
          app={state.app}
          people={state.people}
          label={words.message}
          placeholder={words.messageTo(title)}
          idPrefix="main"
          words={words}
          onSend={props.onSend}
        />
      )}
    </main>
  );
}
