/**
 * The service's reference data: currencies and the category tree. The ids and names are the real
 * ones (src/emulator/data); icons and colours are synthesized in the real shape, because clients
 * only ever show them.
 */
import categoriesData from '../data/categories.json' with { type: 'json' };
import currenciesData from '../data/currencies.json' with { type: 'json' };
import type { Category, Currency } from './model.js';

export const currencies: readonly Currency[] = currenciesData.currencies;
export const currencyUnits: ReadonlyMap<string, string> = new Map(
  currencies.map((c) => [c.currency_code, c.unit]),
);

const ICON_BASE = 'https://s3.amazonaws.com/splitwise/uploads/category/icon';
const COLORS = ['#5bc5a7', '#1cc29f', '#ff652f', '#a6a6a6', '#0b7ad1', '#8656cd', '#e64980'];

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function icons(parent: string, name: string): Pick<Category, 'icon' | 'icon_types'> {
  const path = `${slug(parent)}/${slug(name)}`;
  const pair = (variant: string) => ({
    large: `${ICON_BASE}/${variant}/${path}@2x.png`,
    xlarge: `${ICON_BASE}/${variant}/${path}@3x.png`,
  });
  return {
    icon: `${ICON_BASE}/square_v2/${path}@2x.png`,
    icon_types: {
      slim: { small: `${ICON_BASE}/slim/${path}.png`, large: `${ICON_BASE}/slim/${path}@2x.png` },
      square: pair('square_v2'),
      transparent: pair('transparent'),
      outline_light: pair('outline_light'),
      outline_dark: pair('outline_dark'),
      filled_color_light: pair('filled_color_light'),
      filled_color_dark: pair('filled_color_dark'),
    },
  };
}

export const categories: readonly Category[] = categoriesData.categories.map((parent, i) => {
  const color = COLORS[i % COLORS.length]!;
  const colors = { light: color, dark: color };
  return {
    id: parent.id,
    name: parent.name,
    ...icons(parent.name, parent.name),
    colors,
    subcategories: parent.subcategories.map((sub) => ({
      id: sub.id,
      name: sub.name,
      ...icons(parent.name, sub.name),
      colors,
    })),
  };
});

/** Subcategory id -> name: the ids an expense may carry. */
export const subcategoryNames: ReadonlyMap<number, string> = new Map(
  categories.flatMap((parent) => (parent.subcategories ?? []).map((s) => [s.id, s.name] as const)),
);

/** The default category: 18 "General". */
export const GENERAL_CATEGORY = 18;
