/** Who takes part, with the value typed after each, who paid, and who is left out. */
import { amountOrSumAt } from './arithmetic.js';
import { EX, fail, failWith, refused } from './errors.js';
import { malformed } from './malformed.js';
import { fold, isWord, word } from './tokens.js';
import {
  type ErrorResult,
  ME,
  type ParseContext,
  type Person,
  type Scan,
  type Token,
  type Value,
} from './types.js';
import { grammarOf } from './words.js';

/**
 * `@` and the person's word for me (`@me`, `@moi`, `@ich`, `@yo`, `@eu`): no one Slack knows, so
 * it reaches the app as typed, and it means me as the word alone does.
 */
function atMe(token: Token, ctx: ParseContext | undefined): boolean {
  if (token.t !== 'word' || !token.raw.startsWith('@')) return false;
  if (token.lower === '@me') return true;
  return ctx !== undefined && grammarOf(ctx).me.has(word(token.raw.slice(1)));
}

/**
 * People named in a way Slack does not resolve to one user are refused, never guessed at: the
 * refusal for the first such token, or null. `ctx` lets `@` and the reader's own word for me
 * through (`@moi`); without it only `@me`.
 */
export function refuseNonPeople(tokens: Token[], ctx?: ParseContext): ErrorResult | null {
  for (const token of tokens) {
    if (token.t === 'usergroup') {
      return fail('usergroup', { group: token.label }, EX.team);
    }
    if (token.t === 'broadcast') {
      return fail('broadcast', { name: `@${token.name}` }, EX.team);
    }
    if (token.t === 'word' && /^@[^\s@]+$/.test(token.raw) && !atMe(token, ctx)) {
      return fail('unknown_person', { typed: token.raw });
    }
    if (token.t === 'word' && /^[^\s@<]+@[^\s@]+\.[a-z]{2,}$/i.test(token.raw)) {
      return fail('email_not_mention', { typed: token.raw });
    }
    if (token.t === 'link' && /^[^\s@]+@[^\s@]+$/.test(token.label)) {
      return fail('email_not_mention', { typed: token.label });
    }
  }
  return null;
}

/** The value typed right after a person: `25`, `$25`, `=25`, `60%`, `2x`, `x2`, `2 shares`. */
function valueAt(
  tokens: Token[],
  used: boolean[],
  i: number,
  ctx: ParseContext,
): { value: Value; length: number } | ErrorResult | null {
  let k = i;
  let token = tokens[k];
  if (isWord(token, '=', ':') && !used[k]) token = tokens[++k];
  if (token?.t !== 'word' || used[k]) return null;
  const raw = token.raw.replace(/^[=:]/, '').replace(/[,;]$/, '');
  // Left for takeNumbers to refuse with what is wrong, rather than read as a part.
  if (malformed(raw)) return null;
  const taken = k - i + 1;
  let match = /^(\d+(?:[.,]\d+)?)\s*%$/.exec(raw);
  if (match)
    return { value: { kind: 'percent', decimal: match[1]!.replace(',', '.'), raw }, length: taken };
  match = /^(\d+(?:[.,]\d+)?)$/.exec(raw);
  const next = tokens[k + 1];
  if (match && isWord(next, '%')) {
    return {
      value: { kind: 'percent', decimal: match[1]!.replace(',', '.'), raw: `${raw}%` },
      length: taken + 1,
    };
  }
  match = /^(?:[x×](\d+(?:[.,]\d+)?)|(\d+(?:[.,]\d+)?)[x×])$/i.exec(raw);
  if (match) {
    return { value: { kind: 'shares', count: (match[1] ?? match[2])!, raw }, length: taken };
  }
  if (/^\d+(?:[.,]\d+)?$/.test(raw) && isWord(next, 'share', 'shares', 'part', 'parts')) {
    return {
      value: { kind: 'shares', count: raw, raw: `${raw} ${(next as { raw: string }).raw}` },
      length: taken + 1,
    };
  }
  const amount = amountOrSumAt(tokens, k, ctx.defaultCurrency, word(raw));
  if (refused(amount)) return amount;
  // "@ann 25 @bob 15" gives Ann 25, but in "@ann 40 lunch" the 40 is the cost: an amount is a
  // person's part only when what follows it ends the part (another person, a connector, the end).
  const follower = amount ? tokens[k + amount.length] : undefined;
  const words = grammarOf(ctx);
  const endsPart =
    follower === undefined ||
    used[k + (amount?.length ?? 0)] ||
    follower.t !== 'word' ||
    words.connectors.has(fold(follower.lower)) ||
    words.me.has(follower) ||
    isWord(follower, 'i') ||
    /^\p{P}+$/u.test(follower.raw);
  if (amount && !endsPart) return null;
  if (amount && 'decimal' in amount.reading) {
    return {
      value: {
        kind: 'amount',
        decimal: amount.reading.decimal,
        negative: amount.negative,
        mark: amount.mark,
        raw: amount.raw,
        ...(amount.terms ? { terms: amount.terms } : {}),
      },
      length: taken - 1 + amount.length,
    };
  }
  if (amount && 'problem' in amount.reading) return failWith(amount.reading.problem, EX.exact);
  return null;
}

/**
 * `except me`, `not me`, `-me` and their forms in the person's language (`außer mir`, `sauf moi`,
 * `menos yo`, `sem mim`), and `only @ann` (which leaves me out unless I list myself).
 */
export function takeExclusion({ tokens, used, ctx }: Scan): { excludeMe: boolean; only: boolean } {
  const words = grammarOf(ctx);
  let excludeMe = false;
  let only = false;
  for (let i = 0; i < tokens.length; i++) {
    if (used[i]) continue;
    const except = words.exceptMe.at(tokens, i, used);
    if (except) {
      excludeMe = true;
      for (let k = i; k < i + except.length; k++) used[k] = true;
      i += except.length - 1;
    } else if (isWord(tokens[i], '-me')) {
      excludeMe = true;
      used[i] = true;
    } else if (isWord(tokens[i], 'only', 'just')) {
      const next = tokens[i + 1];
      if (next?.t === 'mention' || words.me.has(next) || isWord(next, 'i')) {
        only = true;
        used[i] = true;
      }
    }
  }
  return { excludeMe, only };
}

/**
 * Mentions and `me` (`mir`, `moi`, `yo`, `eu`...), each with the value typed right after it;
 * repeated people merged.
 */
export function takePeople({
  tokens,
  used,
  ctx,
}: Scan): { people: Person[]; meTyped: boolean } | ErrorResult {
  const words = grammarOf(ctx);
  const people: Person[] = [];
  // Typed ids are looked up in a Map, and at once however many people are named.
  const byId = new Map<string, Person>();
  let meTyped = false;
  for (let i = 0; i < tokens.length; i++) {
    if (used[i]) continue;
    const token = tokens[i]!;
    let id: string | null = null;
    if (token.t === 'mention') id = token.id;
    else if (words.me.has(token) || atMe(token, ctx)) id = ME;
    if (id === null) continue;
    used[i] = true;
    const value = valueAt(tokens, used, i + 1, ctx);
    if (refused(value)) return value;
    if (value) {
      for (let k = i + 1; k <= i + value.length; k++) used[k] = true;
    }
    if (id === ME) meTyped = true;
    const existing = byId.get(id);
    if (existing) {
      if (existing.value && value) {
        const who = id === ME ? 'me' : 'other';
        return fail('two_values', { who, person: { person: id } }, EX.exact);
      }
      existing.value ??= value?.value ?? null;
      continue;
    }
    const person = { id, value: value?.value ?? null };
    people.push(person);
    byId.set(id, person);
  }
  return { people, meTyped };
}
