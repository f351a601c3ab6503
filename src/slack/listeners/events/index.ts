import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../deps.js';
import { EVENTS } from '../../ids.js';
import { appHomeOpened } from './app-home-opened.js';

export function registerEvents(app: App, deps: SlackDeps): void {
  app.event(EVENTS.appHomeOpened, appHomeOpened(deps));
}
