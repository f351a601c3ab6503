import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../deps.js';
import { CALLBACKS } from '../../ids.js';
import { splitMessageShortcut } from './split-message.js';

export function registerShortcuts(app: App, deps: SlackDeps): void {
  app.shortcut(CALLBACKS.splitMessage, splitMessageShortcut(deps));
}
