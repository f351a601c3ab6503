/**
 * The few HTML pages a person sees in their browser while linking: plain, readable, and each one
 * saying what to do next. Everything interpolated is escaped.
 */

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

function page(status: number, title: string, paragraphs: string[], ok: boolean): Page {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n    ');
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
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

const RETRY = 'Go back to Slack and type /split connect to get a fresh link.';

export const pages = {
  /** `pending`: what became of the command the person had typed, if they had typed one. */
  connected: (name: string, pending: 'kept' | 'not kept' | undefined) =>
    page(
      200,
      `Connected as ${name}`,
      [
        'Your Slack account is now linked to your expense account.',
        pending === 'kept'
          ? 'The command you typed is being carried out now; the result appears in Slack.'
          : pending === 'not kept'
            ? "I couldn't carry out the command you typed just now: nothing was booked. Go back to Slack and type it again."
            : 'You can close this tab and go back to Slack.',
      ],
      true,
    ),
  missingState: () =>
    page(400, 'This link is incomplete', ['Nothing was connected.', RETRY], false),
  unknownState: () =>
    page(
      400,
      'This link is not valid',
      [
        'It was not issued by this app, or it was cut short when copied. Nothing was connected.',
        RETRY,
      ],
      false,
    ),
  expiredState: () =>
    page(
      400,
      'This link has expired',
      ['Connect links work for 10 minutes. Nothing was connected.', RETRY],
      false,
    ),
  usedState: () =>
    page(
      400,
      'This link was already used',
      [
        'Each connect link works once. If you just connected, you are done: type /split whoami in Slack to check.',
        `Otherwise: ${RETRY}`,
      ],
      false,
    ),
  otherBrowser: () =>
    page(
      400,
      'This sign-in began somewhere else',
      [
        'It was started in another browser, or from a link meant for someone else, so nothing was connected.',
        `${RETRY} Open the new link in this browser.`,
      ],
      false,
    ),
  signInMismatch: () =>
    page(
      403,
      'This link is for someone else',
      [
        'The person signed in to Slack in this browser is not the one this connect link was made for, so nothing was connected.',
        'Each person connects their own account: type /split connect in Slack yourself and open the link you get, in a browser where you are signed in to Slack as you.',
      ],
      false,
    ),
  signInCancelled: () =>
    page(
      200,
      'Not connected',
      ['You did not sign in with Slack, so nothing was connected.', `To try again: ${RETRY}`],
      false,
    ),
  signInFailed: (detail: string) =>
    page(
      502,
      'Slack did not confirm who you are',
      [`It said: ${detail}. Nothing was connected.`, RETRY],
      false,
    ),
  signInStateMismatch: () =>
    page(
      400,
      'This Slack sign-in is not for this link',
      [
        'It came back for another connect link, or was changed on the way, so nothing was connected.',
        `${RETRY} Open the new link in this browser.`,
      ],
      false,
    ),
  notSignedIn: () =>
    page(
      400,
      'Sign in with Slack first',
      [
        'This browser has not signed in with Slack for this link, so nothing was connected.',
        'Open the connect link again: it asks Slack who you are before the expense service.',
      ],
      false,
    ),
  denied: () =>
    page(
      200,
      'Not connected',
      ['You chose not to allow access, so nothing was connected.', `To try again: ${RETRY}`],
      false,
    ),
  providerError: (detail: string) =>
    page(
      502,
      'The expense service did not complete the sign-in',
      [`It said: ${detail}. Nothing was connected.`, RETRY],
      false,
    ),
  missingCode: () =>
    page(400, 'The sign-in came back without a code', ['Nothing was connected.', RETRY], false),
  failure: () =>
    page(
      500,
      'Something went wrong on our side',
      ['Nothing was connected. Please try again in a minute.', RETRY],
      false,
    ),
};
