// Making and starting workflows in the page's Workflows panel, as an admin would: shared by the
// browser tests and the README's screenshots.
import type { Locator, Page } from 'playwright-core';

export function panel(page: Page): Locator {
  return page.getByRole('complementary', { name: 'Workflows' });
}

export async function openPanel(page: Page): Promise<Locator> {
  const found = panel(page);
  if (!(await found.isVisible())) {
    await page.getByRole('button', { name: 'Workflows', exact: true }).click();
  }
  await found.waitFor();
  return found;
}

/** Where each input comes from, and its value when fixed (a label to pick, or text to type). */
export type InputChoice =
  | { from: 'form' }
  | { from: 'runner' }
  | { from: 'value'; pick: string }
  | { from: 'value'; type: string };

const SOURCE_LABEL = {
  form: 'The form',
  runner: 'The person who starts it',
  value: 'A fixed value',
} as const;

export async function createWorkflow(
  page: Page,
  input: {
    name: string;
    step: string;
    /** A local date and time (yyyy-MM-ddTHH:mm) for a schedule; a link in the channel without. */
    schedule?: string;
    inputs: Record<string, InputChoice>;
  },
): Promise<void> {
  const wf = await openPanel(page);
  const form = wf.locator('form.wf-new');
  await form.getByRole('textbox', { name: 'Name' }).fill(input.name);
  if (input.schedule) {
    await form.getByRole('combobox', { name: 'Trigger' }).selectOption({ label: 'On a schedule' });
    await form.getByLabel('Starts at').fill(input.schedule);
  }
  await form.getByRole('combobox', { name: 'Step' }).selectOption({ label: input.step });
  for (const [title, choice] of Object.entries(input.inputs)) {
    if (!input.schedule) {
      await form
        .getByRole('combobox', { name: `${title}: comes from` })
        .selectOption({ label: SOURCE_LABEL[choice.from] });
    }
    if (choice.from !== 'value') continue;
    const value = form.getByLabel(`${title}: value`);
    if ('pick' in choice) await value.selectOption({ label: choice.pick });
    else await value.fill(choice.type);
  }
  await form.getByRole('button', { name: 'Create workflow' }).click();
  await wf.locator('.wf-item', { hasText: input.name }).waitFor();
}

/** Starts a link workflow and fills its form: text typed, people picked by their names. */
export async function startWorkflow(
  page: Page,
  name: string,
  answers: Record<string, string | string[]>,
): Promise<void> {
  const wf = await openPanel(page);
  const item = wf.locator('.wf-item', { hasText: name });
  await item.getByRole('button', { name: 'Start' }).click();
  const form = item.getByRole('form', { name: `${name} form` });
  for (const [label, answer] of Object.entries(answers)) {
    const field = form.getByLabel(label, { exact: true });
    if (Array.isArray(answer)) await field.selectOption(answer.map((a) => ({ label: a })));
    else await field.fill(answer);
  }
  await form.getByRole('button', { name: 'Submit' }).click();
}

/** How a run ended, whatever the page's language. */
export async function runState(run: Locator): Promise<string | null> {
  return run.locator('.wf-run-head .wf-state').getAttribute('data-state');
}

/** The newest run of a workflow in the panel, once it has ended. */
export async function endedRun(page: Page, name: string, timeoutMs = 20_000): Promise<Locator> {
  const run = panel(page).locator('.wf-run', { hasText: name }).first();
  await run
    .locator('.wf-run-head [data-state="completed"], .wf-run-head [data-state="failed"]')
    .waitFor({ timeout: timeoutMs });
  return run;
}
