/**
 * The words that name a receipt's lines, in the five languages the app speaks. A label is matched
 * on whole words of the text in front of an amount, folded (lower case, no accents, digits an OCR
 * engine reads for letters turned back into letters), so "TOTAL", "Total:", "T0TAL" and "total"
 * are one label, and "Subtotal" never counts as "total".
 */

export type LabelKind =
  | 'subtotal'
  | 'total'
  | 'tax'
  | 'tip'
  | 'service'
  | 'discount'
  | 'payment'
  | 'count';

/** Longest text a label is looked for in. */
const MAX_LABEL_TEXT = 120;

const LETTER_LOOKALIKES = new Map([
  ['0', 'o'],
  ['1', 'l'],
  ['5', 's'],
  ['$', 's'],
  ['|', 'l'],
]);

/**
 * Lower case, accents off, anything not a letter a space; digits inside a word of letters read as
 * the letters they resemble ("T0TAL" -> "total"), while numbers stay numbers.
 */
export function foldLabel(text: string): string {
  const capped = text.slice(0, MAX_LABEL_TEXT).normalize('NFD').toLowerCase();
  const words: string[] = [];
  for (const raw of capped.split(/\s+/)) {
    let letters = 0;
    for (const c of raw) if (c >= 'a' && c <= 'z') letters++;
    let word = '';
    for (const c of raw) {
      if (c >= 'a' && c <= 'z') word += c;
      else if (c === 'ß') word += 'ss';
      else if (letters >= 2 && LETTER_LOOKALIKES.has(c)) word += LETTER_LOOKALIKES.get(c);
      else if (c >= '0' && c <= '9') word += c;
      else if (c >= '\u0300' && c <= '\u036f') continue;
      else word += ' ';
    }
    words.push(word);
  }
  return words.join(' ').split(' ').filter(Boolean).join(' ');
}

interface Phrase {
  kind: LabelKind;
  words: string;
  /** How strongly the phrase names the kind: "amount due" is surer of a total than "amount". */
  weight: number;
}

const phrase = (kind: LabelKind, weight: number, ...list: string[]): Phrase[] =>
  list.map((words) => ({ kind, words, weight }));

/** Checked in this order: the first kind found wins, so "subtotal" and "total tax" never read as a total. */
const PHRASES: Phrase[] = [
  ...phrase(
    'count',
    3,
    'total items',
    'items total',
    'item count',
    'number of items',
    'no of items',
    'anzahl artikel',
    'artikelanzahl',
    'nombre d articles',
    'nb articles',
    'nb d articles',
    'total articles',
    'numero de articulos',
    'total articulos',
    'qtd itens',
    'qtde itens',
    'total de itens',
    'quantidade de itens',
  ),
  ...phrase(
    'subtotal',
    3,
    'subtotal',
    'sub total',
    'zwischensumme',
    'zwischen summe',
    'sous total',
    'soustotal',
    'total ht',
    'montant ht',
    'base imponible',
    'net total',
    'netto',
  ),
  ...phrase('tip', 3, 'tip', 'tips', 'gratuity', 'trinkgeld', 'pourboire', 'propina', 'gorjeta'),
  ...phrase(
    'service',
    3,
    'service charge',
    'service',
    'servicio',
    'servico',
    'taxa de servico',
    'bedienung',
    'bedienungsgeld',
  ),
  ...phrase(
    'discount',
    3,
    'discount',
    'promo',
    'coupon',
    'voucher',
    'rabatt',
    'nachlass',
    'remise',
    'reduction',
    'descuento',
    'dto',
    'desconto',
  ),
  ...phrase(
    'total',
    3,
    'grand total',
    'amount due',
    'total due',
    'balance due',
    'total to pay',
    'to pay',
    'zu zahlen',
    'gesamtbetrag',
    'gesamtsumme',
    'endsumme',
    'total ttc',
    'net a payer',
    'a payer',
    'total a payer',
    'total a pagar',
    'importe total',
    'valor total',
    'valor a pagar',
    'total eur',
    'total usd',
    'total gbp',
  ),
  ...phrase('total', 2, 'total', 'summe', 'gesamt', 'importe', 'montant total', 'totale'),
  ...phrase('total', 1, 'amount', 'betrag', 'montant', 'valor', 'saldo'),
  ...phrase(
    'tax',
    3,
    'tax',
    'taxes',
    'sales tax',
    'vat',
    'gst',
    'hst',
    'mwst',
    'ust',
    'mehrwertsteuer',
    'umsatzsteuer',
    'tva',
    'iva',
    'impuesto',
    'impuestos',
    'imposto',
    'impostos',
  ),
  ...phrase(
    'payment',
    2,
    'cash',
    'card',
    'credit',
    'debit',
    'visa',
    'mastercard',
    'amex',
    'change',
    'tendered',
    'paid',
    'payment',
    'bar gegeben',
    'bargeld',
    'bar eur',
    'gegeben',
    'ruckgeld',
    'rueckgeld',
    'wechselgeld',
    'ec',
    'karte',
    'kartenzahlung',
    'girocard',
    'especes',
    'carte',
    'cb',
    'rendu',
    'monnaie',
    'efectivo',
    'tarjeta',
    'cambio',
    'pago',
    'entregado',
    'dinheiro',
    'cartao',
    'troco',
    'pagamento',
    'pago com',
  ),
];

/** Words that say a tax line is already inside the prices. */
const INCLUDED = new Set([
  'incl',
  'inkl',
  'included',
  'including',
  'includes',
  'enthalten',
  'dont',
  'incluido',
  'incluida',
  'incluidos',
  'incluso',
  'inclus',
  'incluse',
]);

export interface Label {
  kind: LabelKind;
  weight: number;
  /** "incl. VAT", "inkl. MwSt", "dont TVA": the amount is inside the others, not added. */
  included: boolean;
}

/**
 * Whether an OCR'd word is the label word: the same, or for words of six letters or more one
 * letter off ("servigo" for "servico", "incluide" for "incluido"), which an OCR engine makes of
 * accents and worn print. Shorter words must match exactly: "tarte" is not "carte".
 */
function near(word: string, label: string): boolean {
  if (word === label) return true;
  if (label.length < 6 || Math.abs(word.length - label.length) > 1) return false;
  // One substitution, insertion or deletion: walk both while they agree, then skip once.
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < word.length && j < label.length) {
    if (word[i] === label[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (word.length > label.length) i++;
    else if (word.length < label.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (word.length - i) + (label.length - j) <= 1;
}

const PHRASE_WORDS = PHRASES.map((p) => ({ ...p, list: p.words.split(' ') }));

function contains(words: string[], phrase: string[]): boolean {
  for (let start = 0; start + phrase.length <= words.length; start++) {
    let all = true;
    for (let k = 0; k < phrase.length && all; k++) all = near(words[start + k]!, phrase[k]!);
    if (all) return true;
  }
  return false;
}

/** The label of a line's text (before its amount), or null when it names none of the kinds. */
export function labelOf(text: string): Label | null {
  const words = foldLabel(text).split(' ').filter(Boolean);
  if (words.length === 0) return null;
  for (const { kind, list, weight } of PHRASE_WORDS) {
    if (contains(words, list)) {
      let included = false;
      if (kind === 'tax' || kind === 'total') {
        for (const word of words) for (const inc of INCLUDED) if (near(word, inc)) included = true;
      }
      return { kind, weight, included };
    }
  }
  return null;
}
