import type { SlackDeps } from '../../deps.js';
import { FORM } from '../../ids.js';
import type { ListenerTable } from '../table.js';
import { categorySuggestions } from './category.js';
import { currencySuggestions } from './currency.js';

export function registerOptions(table: ListenerTable, deps: SlackDeps): void {
  table.options(FORM.currency, currencySuggestions(deps));
  table.options(FORM.category, categorySuggestions(deps));
}
