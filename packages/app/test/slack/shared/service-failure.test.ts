/** What a person reads when the expense service fails, by value, in their language. */
import { describe, expect, it } from 'vitest';
import {
  ServiceNotAllowedException,
  ServiceRateLimitedException,
  ServiceTimeoutException,
  ServiceUnauthorizedException,
} from '../../../src/service/index.js';
import {
  describeServiceFailure,
  needsRelink,
  refusedText,
} from '../../../src/slack/shared/service-failure.js';
import { voiceFor } from '../../../src/voice/index.js';

const en = await voiceFor({ locale: 'en-US' });
const de = await voiceFor({ locale: 'de-DE' });
const ja = await voiceFor({ locale: 'ja-JP' });

const response = (status: number) => ({ status, headers: {}, body: '' });

describe('a service failure', () => {
  it('finishes its sentence with what was not done, in the reader’s language', () => {
    const timeout = new ServiceTimeoutException('timed out');
    expect(describeServiceFailure(en, timeout, en.t('common.nothing_booked')).text).toBe(
      "Splitwise didn't answer in time. Nothing was booked. Try again in a minute.",
    );
    expect(describeServiceFailure(de, timeout, de.t('common.nothing_booked')).text).toBe(
      'Splitwise hat nicht rechtzeitig geantwortet. Es wurde nichts gebucht. Versuch es in einer Minute noch mal.',
    );
    // Nothing to add leaves no double space.
    expect(describeServiceFailure(ja, timeout, '').text).toBe(
      'Splitwise から時間内に応答がありませんでした。1 分後にもう一度試してください。',
    );
  });

  it('counts the seconds to wait in the reader’s plural', () => {
    const limited = new ServiceRateLimitedException('slow down', { retryAfterMs: 1000 });
    expect(describeServiceFailure(en, limited, '').text).toBe(
      'Splitwise asked me to slow down. Try again in 1 second.',
    );
    const longer = new ServiceRateLimitedException('slow down', { retryAfterMs: 4500 });
    expect(describeServiceFailure(de, longer, '').text).toBe(
      'Splitwise hat mich gebeten, langsamer zu machen. Versuch es in 5 Sekunden noch mal.',
    );
  });

  it('quotes the service’s own words escaped, and asks to connect again on a 401', () => {
    const refused = new ServiceNotAllowedException('refused', {
      response: response(403),
      errors: { base: ['<!channel> *no* & never'] },
    });
    expect(describeServiceFailure(en, refused, '').text).toBe(
      'Splitwise refused: &lt;!channel&gt; \u200b*\u200bno\u200b*\u200b &amp; never.',
    );
    expect(refusedText(de, { cost: ['is <b>'] }, 'Es wurde nichts gelöscht.')).toBe(
      'Splitwise hat abgelehnt: cost: is &lt;b&gt;. Es wurde nichts gelöscht.',
    );
    const unauthorized = new ServiceUnauthorizedException('no', { response: response(401) });
    expect(needsRelink(unauthorized)).toBe(true);
    expect(describeServiceFailure(ja, unauthorized, '').relink).toBe(true);
  });
});
