import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../deps.js';
import { COMMAND } from '../../ids.js';
import { splitCommand } from './split.js';

export function registerCommands(app: App, deps: SlackDeps): void {
  app.command(COMMAND, splitCommand(deps));
}
