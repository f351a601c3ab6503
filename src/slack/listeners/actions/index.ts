import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../deps.js';
import { ACTIONS } from '../../ids.js';
import { connectClicked } from './connect.js';
import { undoClicked } from './undo.js';

export function registerActions(app: App, deps: SlackDeps): void {
  app.action(ACTIONS.connect, connectClicked);
  app.action(ACTIONS.undo, undoClicked(deps));
}
