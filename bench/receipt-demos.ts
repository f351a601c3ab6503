/**
 * The three demo receipts the sandbox ships (a restaurant bill, groceries, a taxi) as phone
 * photos, and the clean receipt the engine's end-to-end test reads:
 *
 *   npx tsx bench/receipt-demos.ts
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Receipt, renderClean, renderPhoto, rng } from './receipt-set.js';

const root = join(fileURLToPath(import.meta.url), '..', '..');

function draw(rows: string[], font: string, width: number, size: number): Receipt {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  let y = 30 + size;
  let body = '';
  for (const row of rows) {
    const [left = '', right] = row.split(' | ');
    const big = left.startsWith('# ');
    const text = big ? left.slice(2) : left;
    const fs = big ? Math.round(size * 1.4) : size;
    if (big)
      body += `<text x="${width / 2}" y="${y}" text-anchor="middle" font-size="${fs}" font-weight="bold">${esc(text)}</text>`;
    else if (text)
      body += `<text x="24" y="${y}" font-size="${fs}" xml:space="preserve">${esc(text)}</text>`;
    if (right)
      body += `<text x="${width - 24}" y="${y}" text-anchor="end" font-size="${fs}">${esc(right)}</text>`;
    y += Math.round(fs * 1.45);
  }
  const height = y + 24;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fdfdfb"/><g font-family="${font}" fill="#111">${body}</g></svg>`;
  const truth = {
    merchant: '',
    currency: 'USD' as const,
    date: '',
    items: [],
    subtotal: 0,
    total: 0,
  };
  return { svg, width, height, style: 'us', truth };
}

const restaurant = draw(
  [
    '# Trattoria Da Luca',
    '21 Mulberry Street, New York',
    'Table 12   Server: Ana',
    '03/14/2025  20:47',
    '',
    'Margherita Pizza | 18.00',
    'Spaghetti Carbonara | 21.50',
    'Caesar Salad | 12.00',
    '2 x Tiramisu | 18.00',
    '2 x Glass of Chianti | 26.00',
    'Sparkling Water | 6.00',
    '',
    'Subtotal | 101.50',
    'Sales Tax 8.875% | 9.01',
    'Tip 18% | 18.27',
    'TOTAL | $128.78',
    '',
    'VISA **** 4417 | $128.78',
    '',
    'Grazie mille!',
  ],
  'DejaVu Sans Mono',
  560,
  21,
);
const groceries = draw(
  [
    '# FRISCHMARKT',
    'Bahnhofstr. 14, 10115 Berlin',
    '14.03.2025 17:32',
    '',
    'Vollmilch 1L | 1,19 A',
    'Bio Eier 10 St | 3,49 A',
    'Bananen | 1,78 A',
    'Vollkornbrot | 2,59 A',
    'Gouda 400g | 4,29 A',
    'Joghurt',
    '  3 x 0,89 | 2,67 A',
    'Mineralwasser | 0,25 B',
    'Rabatt Käse | -0,50 A',
    '',
    'SUMME EUR | 15,76',
    '',
    'Bar gegeben | 20,00',
    'Rückgeld | 4,24',
    'inkl. MwSt 7% A | 1,00',
    'inkl. MwSt 19% B | 0,04',
    '',
    'Vielen Dank für Ihren Einkauf!',
  ],
  'Liberation Mono',
  520,
  20,
);
const taxi = draw(
  [
    '# CITY CABS LONDON',
    'Licensed Hackney Carriage 48213',
    '',
    'Date: 14/03/2025',
    'From: Kings Cross',
    'To: Canary Wharf',
    '',
    'Fare | 31.60',
    'Extras | 2.00',
    'Gratuity | 3.40',
    '',
    'Total | £37.00',
    'Paid by card | £37.00',
    '',
    'Thank you for riding with us',
  ],
  'DejaVu Sans',
  500,
  21,
);

async function main(): Promise<void> {
  const demos = join(root, 'packages/sandbox/demo-receipts');
  await mkdir(demos, { recursive: true });
  // One seed per photo, so that changing one demo leaves the others as they are.
  await writeFile(join(demos, 'restaurant.jpg'), await renderPhoto(restaurant, rng(2025)));
  await writeFile(join(demos, 'groceries.jpg'), await renderPhoto(groceries, rng(6)));
  await writeFile(join(demos, 'taxi.jpg'), await renderPhoto(taxi, rng(2027)));
  const fixtures = join(root, 'packages/app/test/receipts/fixtures');
  await mkdir(fixtures, { recursive: true });
  await writeFile(join(fixtures, 'restaurant.png'), await renderClean(restaurant));
  await writeFile(join(fixtures, 'taxi-photo.jpg'), await renderPhoto(taxi, rng(7)));
}

await main();
