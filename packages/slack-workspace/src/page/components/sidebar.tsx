// The left column: workspace name, who the page acts as (and their language, as Slack's
// preferences set it), the conversations, sandbox controls.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { DotIcon } from '../icons.js';
import { type SurfaceHooks, wordsOf } from '../surface.js';
import type { State } from '../types.js';
import { hrefFor } from '../url.js';
import type { PageWords } from '../words.js';
import { workflowWords } from '../workflow-words.js';

/** What "Run daily digest now" did, from the number of DMs the workspace says it sent. */
function digestOutcome(words: PageWords, sent: number | undefined): string {
  if (sent === undefined) return words.digestRan;
  if (sent === 0) return words.digestNone;
  return words.digestSent(sent);
}

export function Sidebar(props: {
  state: State;
  channel: string | undefined;
  hooks: SurfaceHooks;
  onActing: (id: string) => void;
  onChannel: (id: string) => void;
  onWorkflows: () => void;
}) {
  const { state, channel, hooks } = props;
  const [digesting, setDigesting] = useState(false);
  const channels = state.channels.filter((c) => c.kind === 'channel');
  const apps = state.channels.filter((c) => c.kind === 'app');
  const me = state.people.find((p) => p.id === state.acting);
  const words = wordsOf(state);
  const link = (id: string, label: string, icon?: ComponentChildren) => (
    <li key={id}>
      <a
        href={hrefFor({ as: state.acting, channel: id })}
        class={`nav-link${id === channel ? ' nav-link-current' : ''}`}
        aria-current={id === channel ? 'page' : undefined}
        onClick={(event) => {
          event.preventDefault();
          props.onChannel(id);
        }}
      >
        {icon ? <span class="nav-icon">{icon}</span> : null}
        {label}
      </a>
    </li>
  );
  return (
    <aside class="sidebar" id="sidebar">
      <div class="team">
        <span class="team-name">{state.team.name}</span>
        <span class="team-sub">{words.sandboxWorkspace}</span>
      </div>
      <div class="acting">
        <label for="acting-as">{words.actingAs}</label>
        <select
          id="acting-as"
          value={state.acting}
          onChange={(event) => props.onActing((event.currentTarget as HTMLSelectElement).value)}
        >
          {state.people.map((p) => (
            <option key={p.id} value={p.id}>
              {p.display_name || p.real_name || p.name}
            </option>
          ))}
        </select>
        <label for="acting-locale">{words.language}</label>
        <select
          id="acting-locale"
          value={me?.locale}
          onChange={(event) => {
            const locale = (event.currentTarget as HTMLSelectElement).value;
            api.locale(state.acting, locale).catch(hooks.fail);
          }}
        >
          {state.locales.map((l) => (
            <option key={l.locale} value={l.locale} lang={l.locale}>
              {l.name}
            </option>
          ))}
        </select>
      </div>
      <nav class="nav" aria-label={words.conversations}>
        <h2 class="nav-title">{words.channels}</h2>
        <ul>{channels.map((c) => link(c.id, `#${c.name}`))}</ul>
        <h2 class="nav-title">{words.apps}</h2>
        <ul>{apps.map((c) => link(c.id, state.app.name, <DotIcon />))}</ul>
        {state.workflows && state.workflows.steps.length > 0 ? (
          <button type="button" class="btn btn-sidebar" onClick={props.onWorkflows}>
            {workflowWords(me?.locale).title}
          </button>
        ) : null}
      </nav>
      {state.controls.digest || state.controls.reset ? (
        <div class="controls">
          <h2 class="nav-title">{words.sandbox}</h2>
          {state.controls.digest ? (
            <button
              type="button"
              class="btn btn-sidebar"
              disabled={digesting}
              onClick={() => {
                setDigesting(true);
                api
                  .control('digest')
                  .then((answer) => hooks.notify(digestOutcome(words, answer.sent)))
                  .catch(hooks.fail)
                  .finally(() => setDigesting(false));
              }}
            >
              {words.runDigest}
            </button>
          ) : null}
          {state.controls.reset ? (
            <button
              type="button"
              class="btn btn-sidebar"
              onClick={() => api.control('reset').catch(hooks.fail)}
            >
              {words.reset}
            </button>
          ) : null}
        </div>
      ) : null}
    </aside>
  );
}
