/** Reference data that needs no credential: get_currencies, get_categories. */
import type { NoInput, Operation } from '../operation.js';
import { resource } from '../results.js';
import type { Category, Currency } from '../types.js';

export const getCurrencies: Operation<NoInput, Currency[]> = {
  name: 'getCurrencies',
  method: 'GET',
  path: 'get_currencies',
  needsUser: false,
  read: resource('currencies'),
};

/** The category tree; expenses take a subcategory id. */
export const getCategories: Operation<NoInput, Category[]> = {
  name: 'getCategories',
  method: 'GET',
  path: 'get_categories',
  needsUser: false,
  read: resource('categories'),
};
