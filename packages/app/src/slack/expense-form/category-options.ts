import type { AllMiddlewareArgs, SlackOptionsMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../deps.js';
import { categoryOptionGroups } from './select-options.js';

/** The Category select's search over the service's subcategories, grouped by parent. */
export function categorySuggestions(deps: SlackDeps) {
  return async ({
    ack,
    options,
    logger,
  }: SlackOptionsMiddlewareArgs<'block_suggestion'> & AllMiddlewareArgs): Promise<void> => {
    try {
      await ack({
        option_groups: categoryOptionGroups(await deps.reference.categories(), options.value),
      });
    } catch (error) {
      logger.warn(`category options: ${(error as Error).message}`);
      await ack({ options: [] });
    }
  };
}
