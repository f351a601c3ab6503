import type { AllMiddlewareArgs, SlackOptionsMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../deps.js';
import { currencyOptions } from './select-options.js';

/** The Currency select's search: the service's list (cached), at most 100 matches. */
export function currencySuggestions(deps: SlackDeps) {
  return async ({
    ack,
    options,
    logger,
  }: SlackOptionsMiddlewareArgs<'block_suggestion'> & AllMiddlewareArgs): Promise<void> => {
    try {
      await ack({ options: currencyOptions(await deps.reference.currencies(), options.value) });
    } catch (error) {
      logger.warn(`currency options: ${(error as Error).message}`);
      // Slack shows its own "couldn't load" in the menu for an empty answer; typing again retries.
      await ack({ options: [] });
    }
  };
}
