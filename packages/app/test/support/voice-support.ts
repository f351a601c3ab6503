/**
 * For the tests of what the app writes in a person's voice: a voice in each language the app
 * speaks (en-US, de-DE, ja-JP, fr-FR, es-ES, pt-BR), the text people may type that must come
 * through escaped, and the mrkdwn of a payload (where Slack reads markup) apart from its
 * plain_text (where it shows text as it is).
 */
import { type Voice, voiceFor } from '../../src/voice/index.js';

export const voices: Record<'en' | 'de' | 'ja' | 'fr' | 'es' | 'pt', Voice> = {
  en: await voiceFor({ locale: 'en-US', tz: 'America/New_York' }),
  de: await voiceFor({ locale: 'de-DE', tz: 'Europe/Berlin' }),
  ja: await voiceFor({ locale: 'ja-JP', tz: 'Asia/Tokyo' }),
  fr: await voiceFor({ locale: 'fr-FR', tz: 'Europe/Paris' }),
  es: await voiceFor({ locale: 'es-ES', tz: 'Europe/Madrid' }),
  pt: await voiceFor({ locale: 'pt-BR', tz: 'America/Sao_Paulo' }),
};

/** A name or a description with everything mrkdwn could read as markup. */
export const HOSTILE = 'fish & chips <!channel> <https://x.test|y> *b* _i_ ~s~ `c`';

/** Pieces of HOSTILE that must never reach mrkdwn as they are. */
export const RAW = ['fish & chips', '<!channel>', '<https://x.test|y>', '*b*', '_i_', '~s~', '`c`'];

/** Every mrkdwn text in a payload (blocks, a view, or a message with its fallback `text`). */
export function mrkdwnTexts(payload: unknown): string[] {
  const out: string[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if (record.type === 'mrkdwn' && typeof record.text === 'string') out.push(record.text);
      for (const v of Object.values(record)) walk(v);
    }
  };
  walk(payload);
  return out;
}

/** Every plain_text text in a payload. */
export function plainTexts(payload: unknown): string[] {
  const out: string[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if (record.type === 'plain_text' && typeof record.text === 'string') out.push(record.text);
      for (const v of Object.values(record)) walk(v);
    }
  };
  walk(payload);
  return out;
}

/** The pieces of HOSTILE found as they are in `texts` (none when escaped). */
export function rawIn(texts: readonly string[]): string[] {
  return texts.flatMap((text) => RAW.filter((piece) => text.includes(piece)));
}

/**
 * Node's releases ship different ICU data, which differ in the spaces inside a format (a narrow
 * no-break space in one, a plain space in another): compared with spaces made alike.
 */
export const spaced = (text: string) => text.replace(/[\s\u00a0\u202f]/g, ' ');
