import type { SlackDeps } from '../deps.js';
import { BLOCKS } from '../ids.js';
import { type ButtonArgs, clickerOf } from '../runtime/click.js';

/** The link's state, from the Connect button's URL (`…/oauth/start?state=…`). */
function stateOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).searchParams.get('state') ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * The Connect button opens a URL in the browser; Slack still posts the click, which must be
 * acked, and which comes with a response_url for the message. On a Connect prompt (a message that
 * is only about connecting, its button in the prompt's own block), that response_url is kept with
 * the link, so that once the person is linked the prompt is replaced by the account it linked.
 * Elsewhere (App Home, a reminder DM) the message says more than that, and is left as it is.
 */
export const connectClicked =
  (deps: SlackDeps) =>
  async ({ ack, action, body, logger }: ButtonArgs): Promise<void> => {
    await ack();
    const state = stateOf(action.url);
    if (action.block_id !== BLOCKS.connectActions || !body.response_url || !state) return;
    await deps.linking
      .promptClicked(state, clickerOf(body), body.response_url)
      .catch((error: Error) =>
        logger.warn({ msg: 'Connect click not kept: {error}', error: error.message }),
      );
  };
