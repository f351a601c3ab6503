/**
 * Global setup of the browser tests (`*.browser.test.ts`): finds Chromium at CHROMIUM_PATH, or
 * Debian's /usr/bin/chromium, and hands its path to the tests through `inject('chromiumPath')`,
 * or null: the browser tests are skipped, and the run says so and how to get one. Under CI=true
 * a missing Chromium fails the run here.
 */
import type { TestProject } from 'vitest/node';
import { DEFAULT_CHROMIUM, findChromium, HOW_TO_GET } from '../../scripts/services.js';
import { reportSkipped } from './skipped.js';

export default function setup(project: TestProject): void {
  const chromium = findChromium(process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM);
  if ('found' in chromium) {
    project.provide('chromiumPath', chromium.found);
    return;
  }
  project.provide('chromiumPath', null);
  const line = `Browser tests skipped: ${chromium.missing}; ${HOW_TO_GET.chromium}`;
  if (process.env.CI === 'true')
    throw new Error(`CI=true runs every test, none may be skipped: ${line}`);
  reportSkipped([line]);
}
