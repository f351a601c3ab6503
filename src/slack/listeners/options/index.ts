import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../deps.js';
import { FORM } from '../../ids.js';
import { categorySuggestions } from './category.js';
import { currencySuggestions } from './currency.js';

export function registerOptions(app: App, deps: SlackDeps): void {
  app.options(FORM.currency, currencySuggestions(deps));
  app.options(FORM.category, categorySuggestions(deps));
}
