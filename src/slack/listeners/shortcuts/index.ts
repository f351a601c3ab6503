import type { App } from '@slack/bolt';
import { CALLBACKS } from '../../ids.js';
import { splitMessageShortcut } from './split-message.js';

export function registerShortcuts(app: App): void {
  app.shortcut(CALLBACKS.splitMessage, splitMessageShortcut);
}
