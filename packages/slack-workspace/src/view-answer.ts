/**
 * A modal submission's answer acting on the person's modal stack, as Slack does it: nothing
 * closes the submitted view, `errors` shows messages under input blocks, `update` replaces the
 * view, `push` stacks a new one (at most three deep), `clear` closes them all.
 */
import { parseView, pushModal, replaceView } from './api-views.js';
import { isObject, SlackError } from './http-util.js';
import type { WorkspaceState } from './state.js';
import type { StoredView, Team } from './types.js';

function inputBlockIds(view: StoredView): Set<string> {
  const blocks = Array.isArray(view.view.blocks) ? view.view.blocks : [];
  return new Set(
    blocks
      .filter((b) => isObject(b) && b.type === 'input' && typeof b.block_id === 'string')
      .map((b) => (b as { block_id: string }).block_id),
  );
}

export function handleViewAnswer(
  state: WorkspaceState,
  team: Team,
  user: string,
  view: StoredView,
  answer: unknown,
  notice: (text: string) => void,
): { errors?: Record<string, string> } {
  const stack = state.modals.get(user) ?? [];
  const index = stack.indexOf(view.id);
  const action = isObject(answer) ? answer.response_action : undefined;
  if (view.errors) {
    delete view.errors;
    state.changed();
  }
  try {
    switch (action) {
      case 'errors': {
        const given = isObject(answer) && isObject(answer.errors) ? answer.errors : {};
        const inputs = inputBlockIds(view);
        const errors: Record<string, string> = Object.create(null);
        for (const [blockId, text] of Object.entries(given)) {
          // Slack refuses the whole answer when a key is not an input block of the view.
          if (!inputs.has(blockId)) throw new SlackError('invalid_errors');
          errors[blockId] = String(text);
        }
        view.errors = errors;
        state.changed();
        return { errors: { ...errors } };
      }
      case 'update': {
        const body = parseView(isObject(answer) ? answer.view : undefined);
        replaceView(state, team, view, body);
        return {};
      }
      case 'push': {
        const body = parseView(isObject(answer) ? answer.view : undefined);
        pushModal(state, team, body, view, user);
        return {};
      }
      case 'clear':
        state.setModalStack(user, []);
        return {};
      default:
        if (index >= 0) state.setModalStack(user, stack.slice(0, index));
        return {};
    }
  } catch (error) {
    const code = error instanceof SlackError ? error.error : 'invalid_response';
    notice(`The app's answer could not be shown ("${code}")`);
    return {};
  }
}
