/**
 * A receipt set the benchmark makes itself, with the truth beside each image: receipts written as
 * SVG (fonts, widths, layouts; USD, EUR and GBP; decimal points and commas; tax, tip, service and
 * discount lines; items with quantities), rendered by sharp, then degraded as phone photos or as
 * the hard photos people really take. Seeded, so a seed gives the same set every time.
 */
import sharp from 'sharp';

export interface Truth {
  merchant: string;
  currency: 'USD' | 'EUR' | 'GBP';
  date: string;
  items: { description: string; minor: number }[];
  subtotal: number;
  total: number;
}

export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Style = 'us' | 'uk' | 'de' | 'fr' | 'es' | 'pt';

interface Locale {
  currency: Truth['currency'];
  comma: boolean;
  symbol: string;
  symbolAfter: boolean;
  merchants: string[];
  items: string[];
  words: {
    subtotal: string;
    tax: string;
    tip: string;
    service: string;
    discount: string;
    total: string;
    paid: string;
  };
  /** Tax inside the prices (VAT) rather than added (US sales tax). */
  taxIncluded: boolean;
  date: (y: number, m: number, d: number) => string;
}

const p2 = (n: number) => String(n).padStart(2, '0');

const LOCALES: Record<Style, Locale> = {
  us: {
    currency: 'USD',
    comma: false,
    symbol: '$',
    symbolAfter: false,
    merchants: [
      "JOE'S DINER",
      'Golden Gate Grill',
      'CORNER DELI',
      'Maple Street Market',
      'Blue Bottle Tacos',
    ],
    items: [
      'Cheeseburger',
      'Fries',
      'Iced Tea',
      'Caesar Salad',
      'Coffee',
      'Pancakes',
      'Club Sandwich',
      'Soda',
      'Milkshake',
      'Bagel',
    ],
    words: {
      subtotal: 'Subtotal',
      tax: 'Sales Tax',
      tip: 'Tip',
      service: 'Service Charge',
      discount: 'Discount',
      total: 'TOTAL',
      paid: 'VISA',
    },
    taxIncluded: false,
    date: (y, m, d) => `${p2(m)}/${p2(d)}/${y}`,
  },
  uk: {
    currency: 'GBP',
    comma: false,
    symbol: '£',
    symbolAfter: false,
    merchants: [
      'The Red Lion',
      'PRET STATION',
      'Bella Pasta',
      'The Blue Door Cafe',
      'Tesco Express',
    ],
    items: [
      'Flat White',
      'Fish & Chips',
      'Pint of Bitter',
      'Scone',
      'Tea',
      'Ploughmans',
      'Sticky Toffee',
      'Crisps',
      'Lemonade',
      'Toastie',
    ],
    words: {
      subtotal: 'Subtotal',
      tax: 'VAT 20% incl.',
      tip: 'Gratuity',
      service: 'Service 12.5%',
      discount: 'Discount',
      total: 'Total',
      paid: 'Card',
    },
    taxIncluded: true,
    date: (y, m, d) => `${p2(d)}/${p2(m)}/${y}`,
  },
  de: {
    currency: 'EUR',
    comma: true,
    symbol: '€',
    symbolAfter: true,
    merchants: [
      'Bäckerei Müller',
      'GASTHAUS ZUR POST',
      'Café Central',
      'REWE Markt',
      'Pizzeria Roma',
    ],
    items: [
      'Brezel',
      'Kaffee',
      'Apfelschorle',
      'Schnitzel',
      'Bier 0,5l',
      'Salat',
      'Brötchen',
      'Milch',
      'Käse',
      'Wasser',
    ],
    words: {
      subtotal: 'Zwischensumme',
      tax: 'inkl. MwSt 19%',
      tip: 'Trinkgeld',
      service: 'Bedienung',
      discount: 'Rabatt',
      total: 'SUMME',
      paid: 'Bar',
    },
    taxIncluded: true,
    date: (y, m, d) => `${p2(d)}.${p2(m)}.${y}`,
  },
  fr: {
    currency: 'EUR',
    comma: true,
    symbol: '€',
    symbolAfter: true,
    merchants: ['Café de Flore', 'BOULANGERIE PAUL', 'Le Petit Bistro', 'Chez Marcel', 'Monoprix'],
    items: [
      'Croissant',
      'Café crème',
      'Baguette',
      'Quiche',
      'Vin rouge',
      'Salade',
      'Crêpe',
      'Eau minérale',
      'Tarte',
      'Omelette',
    ],
    words: {
      subtotal: 'Sous-total',
      tax: 'dont TVA 10%',
      tip: 'Pourboire',
      service: 'Service',
      discount: 'Remise',
      total: 'Total TTC',
      paid: 'CB',
    },
    taxIncluded: true,
    date: (y, m, d) => `${p2(d)}/${p2(m)}/${y}`,
  },
  es: {
    currency: 'EUR',
    comma: true,
    symbol: '€',
    symbolAfter: true,
    merchants: ['Bar El Rincón', 'CAFETERÍA SOL', 'Taberna Andaluza', 'Mercadona', 'La Bodeguita'],
    items: [
      'Café con leche',
      'Tortilla',
      'Caña',
      'Patatas bravas',
      'Jamón',
      'Agua',
      'Croquetas',
      'Paella',
      'Vino tinto',
      'Churros',
    ],
    words: {
      subtotal: 'Subtotal',
      tax: 'IVA 10% incluido',
      tip: 'Propina',
      service: 'Servicio',
      discount: 'Descuento',
      total: 'TOTAL',
      paid: 'Tarjeta',
    },
    taxIncluded: true,
    date: (y, m, d) => `${p2(d)}/${p2(m)}/${y}`,
  },
  pt: {
    currency: 'EUR',
    comma: true,
    symbol: '€',
    symbolAfter: true,
    merchants: [
      'Pastelaria Belém',
      'CAFÉ A BRASILEIRA',
      'Tasca do Zé',
      'Pingo Doce',
      'Marisqueira Azul',
    ],
    items: [
      'Pastel de nata',
      'Bica',
      'Bifana',
      'Sopa',
      'Água',
      'Vinho verde',
      'Bacalhau',
      'Sardinhas',
      'Salada',
      'Sumo',
    ],
    words: {
      subtotal: 'Subtotal',
      tax: 'IVA incluído',
      tip: 'Gorjeta',
      service: 'Taxa de serviço',
      discount: 'Desconto',
      total: 'Valor total',
      paid: 'Multibanco',
    },
    taxIncluded: true,
    date: (y, m, d) => `${p2(d)}-${p2(m)}-${y}`,
  },
};

const FONTS = [
  'DejaVu Sans Mono',
  'Liberation Mono',
  'DejaVu Sans',
  'Liberation Sans',
  'DejaVu Serif',
  'Liberation Sans Narrow',
];

function money(minor: number, locale: Locale, withSymbol: boolean, grouped: boolean): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  let whole = String(Math.floor(abs / 100));
  if (grouped && whole.length > 3) {
    whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, locale.comma ? '.' : ',');
  }
  const number = `${whole}${locale.comma ? ',' : '.'}${p2(abs % 100)}`;
  if (!withSymbol) return `${sign}${number}`;
  return locale.symbolAfter
    ? `${sign}${number} ${locale.symbol}`
    : `${sign}${locale.symbol}${number}`;
}

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export interface Receipt {
  truth: Truth;
  svg: string;
  width: number;
  height: number;
  style: Style;
}

/** One receipt, drawn from the seeded generator. */
export function makeReceipt(next: () => number, index: number): Receipt {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const styles: Style[] = ['us', 'uk', 'de', 'fr', 'es', 'pt'];
  const style = styles[index % styles.length]!;
  const locale = LOCALES[style];
  const font = pick(FONTS);
  const size = 20 + Math.floor(next() * 7);
  const width = 420 + Math.floor(next() * 6) * 40;
  // Symbol on every amount, on the total only, or nowhere (currency from the numbers' locale).
  const symbols = pick(['all', 'total', 'total', 'none'] as const);
  const grouped = next() < 0.5;
  const merchant = pick(locale.merchants);
  const y = 2024 + Math.floor(next() * 2);
  const m = 1 + Math.floor(next() * 12);
  const d = 1 + Math.floor(next() * 28);
  const date = `${y}-${p2(m)}-${p2(d)}`;

  const lines: { left: string; right?: string; bold?: boolean; big?: boolean; center?: boolean }[] =
    [];
  lines.push({ left: merchant, big: true, center: true });
  lines.push({
    left: pick([
      '12 High Street',
      'Hauptstr. 5',
      '3 rue de la Paix',
      'Calle Mayor 8',
      'Rua Augusta 21',
      '455 Market St',
    ]),
    center: true,
  });
  lines.push({
    left: `${locale.date(y, m, d)}  ${p2(8 + Math.floor(next() * 13))}:${p2(Math.floor(next() * 60))}`,
  });
  lines.push({ left: '' });
  const items: Truth['items'] = [];
  const count = 2 + Math.floor(next() * 6);
  const used = new Set<string>();
  for (let i = 0; i < count; i++) {
    let name = pick(locale.items);
    while (used.has(name)) name = pick(locale.items);
    used.add(name);
    const unit = 150 + Math.floor(next() * 40) * 25 + (next() < 0.2 ? 100000 : 0);
    const qty = next() < 0.3 ? 2 + Math.floor(next() * 3) : 1;
    const amount = unit * qty;
    items.push({ description: name, minor: amount });
    const sym = symbols === 'all';
    if (qty > 1 && next() < 0.5) {
      lines.push({ left: name });
      lines.push({
        left: `  ${qty} x ${money(unit, locale, false, grouped)}`,
        right: money(amount, locale, sym, grouped),
      });
    } else if (qty > 1) {
      lines.push({ left: `${qty} x ${name}`, right: money(amount, locale, sym, grouped) });
    } else {
      lines.push({ left: name, right: money(amount, locale, sym, grouped) });
    }
  }
  const subtotal = items.reduce((n, item) => n + item.minor, 0);
  const symAll = symbols === 'all';
  const symTotal = symbols !== 'none';
  lines.push({ left: '' });
  const showSubtotal = style === 'us' || next() < 0.6;
  if (showSubtotal)
    lines.push({ left: locale.words.subtotal, right: money(subtotal, locale, symAll, grouped) });
  let total = subtotal;
  const discount = next() < 0.3 ? Math.round(subtotal * 0.1) : 0;
  if (discount) {
    lines.push({ left: locale.words.discount, right: money(-discount, locale, symAll, grouped) });
    total -= discount;
  }
  const tax = Math.round(total * (style === 'us' ? 0.0875 : 0.1));
  if (!locale.taxIncluded) {
    lines.push({ left: locale.words.tax, right: money(tax, locale, symAll, grouped) });
    total += tax;
  }
  const extra = next();
  if (extra < 0.3) {
    const tip = Math.round(subtotal * 0.15);
    lines.push({ left: locale.words.tip, right: money(tip, locale, symAll, grouped) });
    total += tip;
  } else if (extra < 0.45) {
    const service = Math.round(subtotal * 0.125);
    lines.push({ left: locale.words.service, right: money(service, locale, symAll, grouped) });
    total += service;
  }
  lines.push({
    left: locale.words.total,
    right: money(total, locale, symTotal, grouped),
    bold: true,
    big: next() < 0.5,
  });
  if (locale.taxIncluded) {
    lines.push({
      left: locale.words.tax,
      right: money(Math.round(total / 11), locale, false, grouped),
    });
  }
  lines.push({ left: locale.words.paid, right: money(total, locale, symAll, grouped) });
  lines.push({ left: '' });
  lines.push({
    left: pick(['Thank you!', 'Vielen Dank!', 'Merci !', '¡Gracias!', 'Obrigado!']),
    center: true,
  });

  const margin = 24;
  const lineHeight = Math.round(size * 1.45);
  let yPos = margin + size;
  let body = '';
  for (const line of lines) {
    const fs = line.big ? Math.round(size * 1.35) : size;
    const weight = line.bold ? ' font-weight="bold"' : '';
    if (line.center) {
      body += `<text x="${width / 2}" y="${yPos}" text-anchor="middle" font-size="${fs}"${weight}>${escapeXml(line.left)}</text>`;
    } else if (line.left) {
      body += `<text x="${margin}" y="${yPos}" font-size="${fs}"${weight} xml:space="preserve">${escapeXml(line.left)}</text>`;
    }
    if (line.right) {
      body += `<text x="${width - margin}" y="${yPos}" text-anchor="end" font-size="${fs}"${weight}>${escapeXml(line.right)}</text>`;
    }
    yPos += line.big ? Math.round(lineHeight * 1.3) : lineHeight;
  }
  const height = yPos + margin;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fdfdfb"/><g font-family="${font}" fill="#111">${body}</g></svg>`;
  return {
    truth: { merchant, currency: locale.currency, date, items, subtotal, total },
    svg,
    width,
    height,
    style,
  };
}

/** The receipt as a clean PNG, as a scan or a screenshot would give it. */
export async function renderClean(receipt: Receipt): Promise<Buffer> {
  return sharp(Buffer.from(receipt.svg)).png().toBuffer();
}

/** Grey-level noise, in place, on raw RGB pixels. */
function addNoise(raw: Buffer, amount: number, next: () => number): void {
  for (let i = 0; i < raw.length; i += 3) {
    const n = (next() + next() + next() - 1.5) * amount;
    for (let c = 0; c < 3; c++) raw[i + c] = Math.max(0, Math.min(255, raw[i + c]! + n));
  }
}

/** A scene around the paper: a table, and for the hard tier a busy pattern of objects. */
async function scene(
  paper: Buffer,
  w: number,
  h: number,
  busy: boolean,
  next: () => number,
): Promise<Buffer> {
  const W = Math.round(w * 1.35);
  const H = Math.round(h * 1.15);
  let shapes = '';
  if (busy) {
    for (let i = 0; i < 40; i++) {
      const c = `rgb(${Math.floor(next() * 255)},${Math.floor(next() * 255)},${Math.floor(next() * 255)})`;
      shapes += `<rect x="${Math.floor(next() * W)}" y="${Math.floor(next() * H)}" width="${20 + Math.floor(next() * 120)}" height="${10 + Math.floor(next() * 80)}" fill="${c}" transform="rotate(${Math.floor(next() * 90)})"/>`;
    }
  }
  const tone = 60 + Math.floor(next() * 60);
  const bg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="rgb(${tone + 30},${tone + 15},${tone})"/>${shapes}</svg>`;
  return sharp(Buffer.from(bg))
    .composite([
      {
        input: paper,
        left: Math.round((W - w) / 2 + (next() - 0.5) * 0.1 * w),
        top: Math.round((H - h) / 2),
      },
    ])
    .png()
    .toBuffer();
}

/** Light falling off across the photo: a gradient multiplied in. */
async function unevenLight(img: Buffer, strength: number, next: () => number): Promise<Buffer> {
  const { data, info } = await sharp(img).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const angle = next() * Math.PI * 2;
  const cx = Math.cos(angle);
  const cy = Math.sin(angle);
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const t = ((x / info.width - 0.5) * cx + (y / info.height - 0.5) * cy + 0.7) / 1.4;
      const f = 1 - strength * t;
      const i = (y * info.width + x) * 3;
      for (let c = 0; c < 3; c++) data[i + c] = data[i + c]! * f;
    }
  }
  addNoise(data, 18, next);
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
    .png()
    .toBuffer();
}

/** As a phone photo: on a table, turned up to 4 degrees, uneven light, blur, noise, JPEG 60. */
export async function renderPhoto(receipt: Receipt, next: () => number): Promise<Buffer> {
  const clean = await renderClean(receipt);
  const turned = await sharp(clean)
    .rotate((next() - 0.5) * 8, { background: '#fdfdfb' })
    .png()
    .toBuffer({ resolveWithObject: true });
  const placed = await scene(turned.data, turned.info.width, turned.info.height, false, next);
  const lit = await unevenLight(placed, 0.35, next);
  return sharp(lit)
    .blur(0.6 + next() * 0.5)
    .jpeg({ quality: 60 })
    .toBuffer();
}

/** Keystone: each row squeezed towards the centre a little more than the one above it. */
async function perspective(img: Buffer, amount: number): Promise<Buffer> {
  const { data, info } = await sharp(img).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const out = Buffer.alloc(data.length, 0);
  const { width, height } = info;
  for (let y = 0; y < height; y++) {
    const squeeze = 1 - amount * (y / height);
    const offset = (width * (1 - squeeze)) / 2;
    for (let x = 0; x < width; x++) {
      const sx = Math.round((x - offset) / squeeze);
      const o = (y * width + x) * 3;
      if (sx < 0 || sx >= width) {
        out[o] = 90;
        out[o + 1] = 80;
        out[o + 2] = 70;
        continue;
      }
      const i = (y * width + sx) * 3;
      out[o] = data[i]!;
      out[o + 1] = data[i + 1]!;
      out[o + 2] = data[i + 2]!;
    }
  }
  return sharp(out, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** Curled paper (rows bent up and down) with a shaded fold across it. */
async function curlAndFold(img: Buffer, next: () => number): Promise<Buffer> {
  const { data, info } = await sharp(img).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const out = Buffer.alloc(data.length, 255);
  const amp = 3 + next() * 4;
  const fold = Math.floor(height * (0.3 + next() * 0.4));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const dy = Math.round(amp * Math.sin((x / width) * Math.PI));
      const sy = Math.min(height - 1, Math.max(0, y + dy));
      const i = (sy * width + x) * 3;
      const shade = 1 - 0.25 * Math.exp(-(((y - fold) / 6) ** 2));
      const o = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) out[o + c] = data[i + c]! * shade;
    }
  }
  return sharp(out, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

export type HardKind = 'perspective' | 'curl' | 'faded' | 'lowres' | 'motion' | 'busy' | 'jpeg';
export const HARD_KINDS: HardKind[] = [
  'perspective',
  'curl',
  'faded',
  'lowres',
  'motion',
  'busy',
  'jpeg',
];

/** As the hard photos people take: one main fault on top of an ordinary phone photo's. */
export async function renderHard(
  receipt: Receipt,
  kind: HardKind,
  next: () => number,
): Promise<Buffer> {
  let img = await renderClean(receipt);
  if (kind === 'faded') {
    // Thermal print fading: ink a light grey, paper slightly yellow.
    img = await sharp(img)
      .linear(0.35, 255 * 0.62)
      .tint('#fff8e0')
      .png()
      .toBuffer();
  }
  if (kind === 'curl') img = await curlAndFold(img, next);
  const turned = await sharp(img)
    .rotate((next() - 0.5) * 8, { background: '#fdfdfb' })
    .png()
    .toBuffer({ resolveWithObject: true });
  let photo = await scene(
    turned.data,
    turned.info.width,
    turned.info.height,
    kind === 'busy',
    next,
  );
  if (kind === 'perspective') photo = await perspective(photo, 0.12 + next() * 0.06);
  photo = await unevenLight(photo, 0.4, next);
  let pipeline = sharp(photo);
  if (kind === 'motion') {
    // A sideways shake of five pixels: the middle row of a 5 x 3 kernel.
    const kernel = [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0];
    pipeline = pipeline.convolve({ width: 5, height: 3, kernel, scale: 5 });
  } else {
    pipeline = pipeline.blur(0.7 + next() * 0.4);
  }
  if (kind === 'lowres') {
    const meta = await sharp(photo).metadata();
    pipeline = pipeline.resize({ width: Math.round((meta.width ?? 600) * 0.6) });
  }
  return pipeline.jpeg({ quality: kind === 'jpeg' ? 22 : 60 }).toBuffer();
}
