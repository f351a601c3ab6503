/**
 * The languages a person can choose in Slack's preferences, by the locale users.info reports
 * for them (with include_locale), each named in its own language as Slack's menu names it.
 */
export const LOCALES: ReadonlyArray<{ locale: string; name: string }> = [
  { locale: 'de-DE', name: 'Deutsch (Deutschland)' },
  { locale: 'en-GB', name: 'English (UK)' },
  { locale: 'en-US', name: 'English (US)' },
  { locale: 'es-ES', name: 'Español (España)' },
  { locale: 'es-LA', name: 'Español (Latinoamérica)' },
  { locale: 'fr-FR', name: 'Français (France)' },
  { locale: 'it-IT', name: 'Italiano (Italia)' },
  { locale: 'ja-JP', name: '日本語' },
  { locale: 'ko-KR', name: '한국어' },
  { locale: 'pt-BR', name: 'Português (Brasil)' },
  { locale: 'zh-CN', name: '简体中文' },
  { locale: 'zh-TW', name: '繁體中文' },
];

export function isLocale(value: string): boolean {
  return LOCALES.some((l) => l.locale === value);
}
