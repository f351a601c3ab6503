// The Workflows panel, a small Workflow Builder: make a workflow from a trigger (a link in this
// channel, or a schedule) and one of the app's steps, its inputs fixed or asked in a form; start
// one, filling its form; and see each run's steps end, with their outputs or their error.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { CloseIcon } from '../icons.js';
import { localeOf, type SurfaceHooks } from '../surface.js';
import type { AppStep, InputSource, State, StepParam, Workflows } from '../types.js';
import { type WorkflowWords, workflowWords } from '../workflow-words.js';

const wordsFor = (state: State): WorkflowWords => workflowWords(localeOf(state));

type Source = InputSource['from'];

const INTERACTIVITY = 'slack#/types/interactivity';

function personName(state: State, id: string | null): string {
  const p = state.people.find((x) => x.id === id);
  return p ? p.display_name || p.real_name || p.name : (id ?? '');
}

/** One value picked from `choices`, or none ("—"). */
function OneOf(props: {
  id: string;
  label: string;
  value: unknown;
  onChange: (value: unknown) => void;
  choices: { value: string; label: string }[];
}) {
  return (
    <select
      id={props.id}
      aria-label={props.label}
      value={typeof props.value === 'string' ? props.value : ''}
      onChange={(e) => props.onChange((e.currentTarget as HTMLSelectElement).value)}
    >
      <option value="">—</option>
      {props.choices.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </select>
  );
}

/** An editor for one value of a parameter's type: people and channels are picked, not typed. */
function ValueInput(props: {
  state: State;
  id: string;
  label: string;
  type: string;
  items: string | null;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  const { state, id, label, type, items, value } = props;
  const humans = state.people.filter((p) => !p.is_bot);
  if (type === 'slack#/types/user_id') {
    const choices = humans.map((p) => ({ value: p.id, label: personName(state, p.id) }));
    return <OneOf {...props} choices={choices} />;
  }
  if (type === 'array' && items === 'slack#/types/user_id') {
    const chosen = Array.isArray(value) ? (value as string[]) : [];
    return (
      <select
        id={id}
        aria-label={label}
        multiple
        size={Math.min(4, humans.length)}
        onChange={(e) =>
          props.onChange(
            [...(e.currentTarget as HTMLSelectElement).selectedOptions].map((o) => o.value),
          )
        }
      >
        {humans.map((p) => (
          <option key={p.id} value={p.id} selected={chosen.includes(p.id)}>
            {personName(state, p.id)}
          </option>
        ))}
      </select>
    );
  }
  if (type === 'slack#/types/channel_id') {
    const choices = state.channels
      .filter((c) => c.kind === 'channel')
      .map((c) => ({ value: c.id, label: `#${c.name}` }));
    return <OneOf {...props} choices={choices} />;
  }
  const number = type === 'number' || type === 'integer';
  const shown = value === undefined || value === null ? '' : String(value);
  if (number) {
    return (
      <input
        id={id}
        aria-label={label}
        type="number"
        step="any"
        value={shown}
        onInput={(e) => {
          const raw = (e.currentTarget as HTMLInputElement).value;
          // A number input hands the step a number, as Workflow Builder's form does.
          props.onChange(raw !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw);
        }}
      />
    );
  }
  return (
    <input
      id={id}
      aria-label={label}
      type="text"
      value={shown}
      onInput={(e) => props.onChange((e.currentTarget as HTMLInputElement).value)}
    />
  );
}

/** Making a workflow: its name, trigger, step, and where each input comes from. */
function NewWorkflow(props: { state: State; channel: string; hooks: SurfaceHooks }) {
  const { state, channel, hooks } = props;
  const w = wordsFor(state);
  const steps = state.workflows?.steps ?? [];
  const [name, setName] = useState('');
  const [trigger, setTrigger] = useState<'link' | 'schedule'>('link');
  const [at, setAt] = useState('');
  const [repeat, setRepeat] = useState<'' | 'daily' | 'weekly'>('');
  const [stepId, setStepId] = useState(steps[0]?.callback_id ?? '');
  const [sources, setSources] = useState<Record<string, Source>>({});
  const [values, setValues] = useState<Record<string, unknown>>({});
  const step: AppStep | undefined = steps.find((s) => s.callback_id === stepId);
  const params = (step?.input_parameters ?? []).filter((p) => p.type !== INTERACTIVITY);
  const sourceOf = (p: StepParam): Source =>
    trigger === 'schedule' ? 'value' : (sources[p.name] ?? 'value');

  const create = async (event: Event) => {
    event.preventDefault();
    if (!step) return;
    const inputs: Record<string, InputSource> = {};
    for (const p of params) {
      const from = sourceOf(p);
      if (from === 'value') {
        const value = values[p.name];
        if (value === undefined || value === '') continue;
        inputs[p.name] = { from, value };
      } else inputs[p.name] = { from };
    }
    try {
      await api.workflowCreate(state.acting, {
        name,
        channel,
        trigger:
          trigger === 'link'
            ? { kind: 'link' }
            : { kind: 'schedule', at: new Date(at).getTime(), ...(repeat ? { repeat } : {}) },
        steps: [{ callback_id: step.callback_id, inputs }],
      });
      setName('');
      setValues({});
      hooks.notify(w.created(name));
    } catch (error) {
      hooks.fail(error);
    }
  };

  return (
    <form class="wf-new" onSubmit={create}>
      <h3>{w.newWorkflow}</h3>
      <label>
        {w.name}
        <input value={name} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} />
      </label>
      <label>
        {w.trigger}
        <select
          value={trigger}
          onChange={(e) =>
            setTrigger((e.currentTarget as HTMLSelectElement).value as 'link' | 'schedule')
          }
        >
          <option value="link">{w.link}</option>
          <option value="schedule">{w.schedule}</option>
        </select>
      </label>
      {trigger === 'schedule' ? (
        <div class="wf-row">
          <label>
            {w.startsAt}
            <input
              type="datetime-local"
              value={at}
              onInput={(e) => setAt((e.currentTarget as HTMLInputElement).value)}
            />
          </label>
          <label>
            {w.repeats}
            <select
              value={repeat}
              onChange={(e) =>
                setRepeat((e.currentTarget as HTMLSelectElement).value as '' | 'daily' | 'weekly')
              }
            >
              <option value="">{w.once}</option>
              <option value="daily">{w.daily}</option>
              <option value="weekly">{w.weekly}</option>
            </select>
          </label>
        </div>
      ) : null}
      <label>
        {w.step}
        <select
          value={stepId}
          onChange={(e) => setStepId((e.currentTarget as HTMLSelectElement).value)}
        >
          {steps.map((s) => (
            <option key={s.callback_id} value={s.callback_id}>
              {s.title}
            </option>
          ))}
        </select>
      </label>
      {params.map((p) => {
        const from = sourceOf(p);
        const label = `${p.title}${p.is_required ? ' *' : ''}`;
        return (
          <fieldset key={`${stepId}-${p.name}`} class="wf-input">
            <legend>{label}</legend>
            {trigger === 'link' ? (
              <select
                aria-label={w.comesFrom(p.title)}
                value={from}
                onChange={(e) =>
                  setSources({
                    ...sources,
                    [p.name]: (e.currentTarget as HTMLSelectElement).value as Source,
                  })
                }
              >
                <option value="value">{w.fixed}</option>
                <option value="form">{w.form}</option>
                {p.type === 'slack#/types/user_id' ? (
                  <option value="runner">{w.runner}</option>
                ) : null}
              </select>
            ) : null}
            {from === 'value' ? (
              <ValueInput
                state={state}
                id={`wf-new-${p.name}`}
                label={w.value(p.title)}
                type={p.type}
                items={p.items?.type ?? null}
                value={values[p.name]}
                onChange={(value) => setValues({ ...values, [p.name]: value })}
              />
            ) : null}
          </fieldset>
        );
      })}
      <button type="submit" class="btn btn-primary" disabled={!name.trim() || !step}>
        {w.create}
      </button>
    </form>
  );
}

/** A link workflow's start: its form when it has one, then the run. */
function StartForm(props: {
  state: State;
  workflow: Workflows['list'][number];
  hooks: SurfaceHooks;
  onDone: () => void;
}) {
  const { state, workflow, hooks } = props;
  const w = wordsFor(state);
  const [form, setForm] = useState<Record<string, unknown>>({});
  const start = async (event: Event) => {
    event.preventDefault();
    try {
      await api.workflowStart(state.acting, workflow.id, form);
      props.onDone();
    } catch (error) {
      hooks.fail(error);
    }
  };
  return (
    <form class="wf-start" onSubmit={start} aria-label={w.formOf(workflow.name)}>
      {workflow.form.map((f) => (
        <div key={`${f.step}-${f.name}`} class="wf-field">
          <label for={`wf-${workflow.id}-${f.name}`}>
            {f.title}
            {f.required ? ' *' : ''}
          </label>
          <ValueInput
            state={state}
            id={`wf-${workflow.id}-${f.name}`}
            label={f.title}
            type={f.type}
            items={f.items}
            value={form[f.name]}
            onChange={(value) => setForm({ ...form, [f.name]: value })}
          />
        </div>
      ))}
      <button type="submit" class="btn btn-primary">
        {w.submit}
      </button>
    </form>
  );
}

function Runs(props: { state: State }) {
  const { state } = props;
  const w = wordsFor(state);
  const runs = state.workflows?.runs ?? [];
  if (runs.length === 0) return <p class="wf-muted">{w.noRuns}</p>;
  return (
    <ul class="wf-runs" aria-label={w.runs}>
      {runs.map((run) => (
        <li key={run.id} class={`wf-run wf-${run.state}`}>
          <div class="wf-run-head">
            <strong>{run.name}</strong>
            <span class="wf-state" data-state={run.state}>
              {w.state[run.state]}
            </span>
          </div>
          <div class="wf-muted">
            {run.ranBy ? w.startedBy(personName(state, run.ranBy)) : w.startedBySchedule}
          </div>
          {run.steps.map((step) => (
            <div key={step.id} class="wf-step">
              <div>
                {step.title}: <span class="wf-state">{w.state[step.state]}</span>
              </div>
              {step.error ? <div class="wf-error">{step.error}</div> : null}
              {step.outputs ? (
                <dl class="wf-outputs">
                  {Object.entries(step.outputs).map(([k, v]) => (
                    <div key={k}>
                      <dt>{k}</dt>
                      <dd>{String(v)}</dd>
                    </div>
                  ))}
                </dl>
              ) : null}
            </div>
          ))}
        </li>
      ))}
    </ul>
  );
}

export function WorkflowsPanel(props: {
  state: State;
  channel: string;
  hooks: SurfaceHooks;
  onClose: () => void;
}) {
  const { state, channel, hooks } = props;
  const w = wordsFor(state);
  const [starting, setStarting] = useState<string | null>(null);
  const here = (state.workflows?.list ?? []).filter((w) => w.channel === channel);
  const channelName = state.channels.find((c) => c.id === channel)?.name ?? channel;
  return (
    <aside class="thread workflows" aria-label={w.title}>
      <header class="thread-head">
        <h2>{w.title}</h2>
        <button type="button" class="icon-button" aria-label={w.close} onClick={props.onClose}>
          <CloseIcon />
        </button>
      </header>
      <div class="thread-list wf-body">
        <h3>{w.inChannel(channelName)}</h3>
        {here.length === 0 ? <p class="wf-muted">{w.noneYet}</p> : null}
        <ul class="wf-list">
          {here.map((item) => (
            <li key={item.id} class="wf-item">
              <div class="wf-run-head">
                <strong>{item.name}</strong>
                {item.trigger.kind === 'link' ? (
                  <button
                    type="button"
                    class="btn"
                    onClick={() => setStarting(starting === item.id ? null : item.id)}
                  >
                    {w.start}
                  </button>
                ) : (
                  <span class="wf-muted">
                    {item.nextRunAt
                      ? w.next(new Date(item.nextRunAt).toLocaleString(localeOf(state)))
                      : w.done}
                  </span>
                )}
              </div>
              {starting === item.id ? (
                <StartForm
                  state={state}
                  workflow={item}
                  hooks={hooks}
                  onDone={() => setStarting(null)}
                />
              ) : null}
            </li>
          ))}
        </ul>
        <h3>{w.runs}</h3>
        <Runs state={state} />
        {state.workflows && state.workflows.steps.length > 0 ? (
          <NewWorkflow state={state} channel={channel} hooks={hooks} />
        ) : (
          <p class="wf-muted">{w.noSteps}</p>
        )}
      </div>
    </aside>
  );
}
