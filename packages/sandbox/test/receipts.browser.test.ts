// A photo of a bill read into the expense form, as a newcomer tries it in the sandbox: the demo
// receipts wait in #lunch; "Split this" on the restaurant bill opens the form at once, and the
// reading fills its total, date, merchant and the itemised split, ready to assign and book. A
// photo dropped on the composer is attached to the message, as one chosen with the paperclip.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Flows, link, messages, open, startFlows, wordsOn } from './harness.js';

const chromiumPath = inject('chromiumPath');

let flows: Flows;

beforeAll(async () => {
  flows = await startFlows(chromiumPath!);
  await link(flows, 'Ada');
}, 60_000);

afterAll(async () => {
  await flows?.close();
});

describe.skipIf(!chromiumPath)('"Split this" on a photo of a bill', () => {
  it('opens the form at once and fills it from the photo', async () => {
    const { page } = flows;
    await open(page, '#lunch');
    const photo = messages(page).filter({ hasText: 'restaurant.jpg' }).last();
    await expect.poll(() => photo.getByRole('img').count()).toBe(1);
    await photo.hover();
    await photo.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: /Split this/ }).click();
    const form = page.getByRole('dialog', { name: 'Split an expense' });
    await form.getByText('Reading the receipt').waitFor({ timeout: 10_000 });
    // The worker starts on this first reading: tesseract loads, on a machine shared with others.
    const amount = form.getByRole('textbox', { name: 'Amount', exact: true });
    await expect.poll(() => amount.inputValue(), { timeout: 45_000 }).toBe('101.50');
    expect(await form.getByRole('textbox', { name: 'What for' }).inputValue()).toBe(
      'Trattoria Da Luca',
    );
    const note = await form.getByText('Read from the receipt').innerText();
    expect(note).toContain('US$128.78');
    expect(note).toContain('6 items');
    expect(await form.getByRole('radio', { name: /Itemise/ }).isChecked()).toBe(true);
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
  }, 90_000);

  it('attaches a photo dropped on the composer', async () => {
    const { page } = flows;
    await open(page, '#general');
    const words = await wordsOn(page);
    const bytes = await readFile(join(import.meta.dirname, '..', 'demo-receipts', 'taxi.jpg'));
    // What the browser hands a drop of one file from the desktop.
    const drop = await page.evaluateHandle(`(() => {
      const data = new DataTransfer();
      const raw = Uint8Array.from(atob('${bytes.toString('base64')}'), (c) => c.charCodeAt(0));
      data.items.add(new File([raw], 'cab.jpg', { type: 'image/jpeg' }));
      return data;
    })()`);
    const composer = page.locator('.composer').first();
    await composer.dispatchEvent('dragover', { dataTransfer: drop });
    await composer.dispatchEvent('drop', { dataTransfer: drop });
    await page.getByRole('button', { name: words.removeFile('cab.jpg') }).waitFor();
    await page.getByRole('button', { name: words.send }).click();
    const sent = messages(page).filter({ hasText: 'cab.jpg' }).last();
    await expect.poll(() => sent.getByRole('img', { name: 'cab.jpg' }).count()).toBe(1);
  }, 30_000);
});
