/**
 * The service's currencies and categories: the same for everyone and rarely changed, so they are
 * read with the app's own client (no person's token needed) and kept for an hour. The form's
 * searchable selects answer from here within Slack's 3 seconds.
 */

import type { ServiceFactory } from '../../accounts/service.js';
import type { Category, Currency } from '../../service/index.js';
import { TtlCache } from '../../store/ttl-cache.js';

const REFERENCE_TTL_MS = 60 * 60_000;

export interface ReferenceData {
  currencies(): Promise<Currency[]>;
  categories(): Promise<Category[]>;
  /** Whether the service knows a code: undefined when the list hasn't been read yet. */
  knownCurrency(code: string): boolean | undefined;
  /** The symbol of a currency, when the list has been read. */
  unit(code: string): string | undefined;
  /** A subcategory's name, when the tree has been read. */
  categoryName(id: number): string | undefined;
}

export function createReferenceData(service: Pick<ServiceFactory, 'forApp'>): ReferenceData {
  const currencies = new TtlCache<Currency[]>(REFERENCE_TTL_MS, 4);
  const categories = new TtlCache<Category[]>(REFERENCE_TTL_MS, 4);
  return {
    currencies: () => currencies.getOrLoad('all', () => service.forApp().getCurrencies()),
    categories: () => categories.getOrLoad('all', () => service.forApp().getCategories()),
    knownCurrency(code) {
      const list = currencies.get('all');
      return list ? list.some((c) => c.currency_code === code) : undefined;
    },
    unit: (code) => currencies.get('all')?.find((c) => c.currency_code === code)?.unit,
    categoryName(id) {
      for (const parent of categories.get('all') ?? []) {
        const found = parent.subcategories?.find((s) => s.id === id);
        if (found) return found.name;
      }
      return undefined;
    },
  };
}
