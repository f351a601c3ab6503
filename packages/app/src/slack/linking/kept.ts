/**
 * What the app keeps about a person, in their words: App Home lists it, and `/split disconnect`
 * and Home's "Remove my data" say what they removed.
 */
import type { KeptAbout } from '../../store/index.js';
import type { Voice } from '../shared/voice.js';

/** One line per thing kept (plain text); empty when nothing is. */
export function keptLines(kept: KeptAbout, voice: Voice): string[] {
  const { t } = voice;
  const lines: string[] = [];
  if (kept.token) lines.push(t('actions.kept_token'));
  if (kept.preferences) lines.push(t('actions.kept_default_group'));
  if (kept.digest) {
    lines.push(kept.digest.snapshot ? t('actions.kept_digest_snapshot') : t('actions.kept_digest'));
  }
  if (kept.lastBooked) lines.push(t('actions.kept_last_booked'));
  if (kept.drafts) lines.push(t('actions.kept_drafts', { count: kept.drafts }));
  if (kept.linkStates) lines.push(t('actions.kept_link_states', { count: kept.linkStates }));
  return lines;
}

/** What `/split disconnect` and Home's "Remove my data" answer (plain text). */
export function forgottenText(kept: KeptAbout, voice: Voice): string {
  const lines = keptLines(kept, voice);
  if (lines.length === 0) return voice.t('actions.forgot_nothing');
  return voice.t('actions.forgot', { kept: lines.join(voice.t('actions.kept_separator')) });
}
