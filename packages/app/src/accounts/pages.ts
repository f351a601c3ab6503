/**
 * The few HTML pages a person sees in their browser while linking: plain, readable, each one
 * saying what to do next, and in the person's language (see `pagesFor`). Everything interpolated
 * is HTML-escaped, the words of the catalogue included.
 */
import { languageOf, type Voice } from '../voice/index.js';

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export interface Page {
  status: number;
  html: string;
}

/** The most of an Accept-Language header that is read: browsers send a few dozen characters. */
const ACCEPT_LANGUAGE_MAX = 512;
const LANGUAGE_RANGE = /^([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*)(?:;q=([01](?:\.\d{0,3})?))?$/;

/**
 * The browser's preferred locale among the languages the pages are written in (`de-AT`, `pt`),
 * from its Accept-Language header; undefined when it prefers none of them, or sends none.
 */
export function browserLocale(header: string | undefined): string | undefined {
  if (!header) return undefined;
  let best: { tag: string; q: number } | undefined;
  for (const part of header.slice(0, ACCEPT_LANGUAGE_MAX).split(',')) {
    const match = LANGUAGE_RANGE.exec(part.trim());
    if (!match) continue;
    const tag = match[1]!;
    const q = match[2] === undefined ? 1 : Number(match[2]);
    const language = languageOf(tag);
    // English is what any other language falls back to: only a tag that asks for it chooses it.
    const covered =
      language !== 'en' || tag.toLowerCase() === 'en' || tag.toLowerCase().startsWith('en-');
    if (covered && q > 0 && (best === undefined || q > best.q)) best = { tag, q };
  }
  return best?.tag;
}

/** A link on a page, and a page that moves on by itself (the install's way back to Slack). */
interface PageExtras {
  links?: { href: string; text: string }[];
  refresh?: string;
}

/**
 * One of the app's browser pages: a title and paragraphs of text (escaped here), in the language
 * of `voice`, which its `lang` names.
 */
export function htmlPage(
  voice: Voice,
  status: number,
  title: string,
  paragraphs: string[],
  ok: boolean,
  extras: PageExtras = {},
): Page {
  const body = [
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(extras.links ?? []).map(
      (l) => `<p><a href="${escapeHtml(l.href)}">${escapeHtml(l.text)}</a></p>`,
    ),
  ].join('\n    ');
  const refresh = extras.refresh
    ? `\n  <meta http-equiv="refresh" content="0; URL=${escapeHtml(extras.refresh)}">`
    : '';
  // The language of the words (a locale the app does not cover gets English ones).
  const html = `<!DOCTYPE html>
<html lang="${escapeHtml(voice.language)}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">${refresh}
  <title>${escapeHtml(title)} · Split</title>
  <style>
    body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f6f7f6; color: #1d1c1d; }
    main { max-width: 34rem; margin: 12vh auto; background: #fff; padding: 2rem 2.5rem;
           border-radius: 12px; box-shadow: 0 1px 4px rgba(0,0,0,.08); }
    h1 { font-size: 1.4rem; margin-top: 0; color: ${ok ? '#1f6f5c' : '#a4262c'}; }
  </style>
</head>
<body>
  <main>
    <h1>${escapeHtml(title)}</h1>
    ${body}
  </main>
</body>
</html>
`;
  return { status, html };
}

const page = htmlPage;

/** Why Sign in with Slack did not prove who is in the browser (sign-in.ts), or Slack's own code. */
export type SignInProblem =
  | { problem: 'slack_error'; code: string }
  | {
      problem:
        | 'not_jwt'
        | 'issuer'
        | 'audience'
        | 'expired'
        | 'nonce'
        | 'no_identity'
        | 'no_id_token'
        | 'http_error'
        | 'no_answer'
        /** A reason sent back in a shape that is not shown (anyone can write a URL). */
        | 'unreadable';
    };

/** Why the expense service did not complete the consent. */
export type ProviderProblem =
  | { problem: 'said'; text: string }
  | { problem: 'http'; status: number }
  | { problem: 'timeout' }
  | { problem: 'unreadable' };

/** The linking pages, in the words and the language of `voice`. */
export function pagesFor(voice: Voice) {
  const { t } = voice;
  const nothing = t('pages.nothing_connected');
  return {
    /** `pending`: what became of the command the person had typed, if they had typed one. */
    connected: (name: string, pending: 'kept' | 'not kept' | undefined) =>
      page(
        voice,
        200,
        t('pages.connected_title', { name }),
        [
          t('pages.connected_text'),
          pending === 'kept'
            ? t('pages.connected_kept')
            : pending === 'not kept'
              ? t('pages.connected_not_kept')
              : t('pages.connected_close'),
        ],
        true,
      ),
    missingState: () =>
      page(voice, 400, t('pages.missing_title'), [nothing, t('pages.retry')], false),
    unknownState: () =>
      page(
        voice,
        400,
        t('pages.unknown_title'),
        [t('pages.unknown_text'), t('pages.retry')],
        false,
      ),
    expiredState: () =>
      page(
        voice,
        400,
        t('pages.expired_title'),
        [t('pages.expired_text'), t('pages.retry')],
        false,
      ),
    replacedState: () =>
      page(
        voice,
        400,
        t('pages.replaced_title'),
        [t('pages.replaced_text'), t('pages.retry')],
        false,
      ),
    usedState: () =>
      page(
        voice,
        400,
        t('pages.used_title'),
        [t('pages.used_text'), t('pages.retry_otherwise')],
        false,
      ),
    otherBrowser: () =>
      page(
        voice,
        400,
        t('pages.other_browser_title'),
        [t('pages.other_browser_text'), t('pages.retry_this_browser')],
        false,
      ),
    signInMismatch: () =>
      page(
        voice,
        403,
        t('pages.mismatch_title'),
        [t('pages.mismatch_text'), t('pages.mismatch_hint')],
        false,
      ),
    signInCancelled: () =>
      page(
        voice,
        200,
        t('pages.not_connected_title'),
        [t('pages.cancelled_text'), t('pages.retry_try_again')],
        false,
      ),
    signInFailed: (why: SignInProblem) =>
      page(
        voice,
        502,
        t('pages.sign_in_failed_title'),
        [
          t('pages.sign_in_failed_text', {
            detail:
              why.problem === 'slack_error'
                ? why.code
                : t('pages.sign_in_problem', { problem: why.problem }),
          }),
          t('pages.retry'),
        ],
        false,
      ),
    signInStateMismatch: () =>
      page(
        voice,
        400,
        t('pages.sign_in_state_title'),
        [t('pages.sign_in_state_text'), t('pages.retry_this_browser')],
        false,
      ),
    notSignedIn: () =>
      page(
        voice,
        400,
        t('pages.not_signed_in_title'),
        [t('pages.not_signed_in_text'), t('pages.not_signed_in_hint')],
        false,
      ),
    denied: () =>
      page(
        voice,
        200,
        t('pages.not_connected_title'),
        [t('pages.denied_text'), t('pages.retry_try_again')],
        false,
      ),
    providerError: (why: ProviderProblem) =>
      page(
        voice,
        502,
        t('pages.provider_title'),
        [
          t('pages.provider_text', {
            problem: why.problem,
            detail: why.problem === 'said' ? why.text : '',
          }),
          t('pages.retry'),
        ],
        false,
      ),
    missingCode: () =>
      page(voice, 400, t('pages.missing_code_title'), [nothing, t('pages.retry')], false),
    failure: () =>
      page(
        voice,
        500,
        t('pages.failure_title'),
        [t('pages.failure_text'), t('pages.retry')],
        false,
      ),
  };
}

export type Pages = ReturnType<typeof pagesFor>;
