/**
 * Reference data that needs no credential: currencies and the category tree, and get_currencies,
 * get_categories.
 */
import type { NoInput, Operation } from '../operation.js';
import { resource } from '../results.js';

export interface Currency {
  currency_code: string;
  unit: string;
}

export interface Subcategory {
  id: number;
  name: string;
  icon?: string;
  icon_types?: Record<string, Record<string, string>>;
  colors?: { light?: string; dark?: string };
}

export interface Category extends Subcategory {
  subcategories: Subcategory[];
}

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
