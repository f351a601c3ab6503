/**
 * What `/split` handlers share: the caller's link, the prompt to connect (remembering what was
 * typed, so that it is carried out afterwards), and service failures told to the person (a 401
 * removes the link and asks to connect again).
 */
import { ServiceBaseException, type ServiceClient } from '../../service/index.js';
import type { ServiceTokenRecord } from '../../store/index.js';
import { describeServiceFailure } from '../service-failure.js';
import { type ConnectReason, connectPrompt, plainNotice } from '../views/notices.js';
import type { SplitContext } from './run.js';

/** Asks the person to connect; with `carry`, what they typed is carried out once they have. */
export async function promptConnect(
  c: SplitContext,
  reason: ConnectReason,
  carry: boolean,
): Promise<void> {
  const pending = carry
    ? {
        text: c.inv.text,
        channel_id: c.inv.channel_id,
        ...(c.inv.response_url ? { response_url: c.inv.response_url } : {}),
        at: c.deps.now().getTime(),
      }
    : undefined;
  const url = await c.deps.linking.connectUrl(c.user, pending);
  await c.reply.ephemeral(
    connectPrompt({ url, reason, pendingText: carry ? c.inv.text : undefined }),
  );
}

/** The caller's link and a client for it, or undefined after asking them to connect. */
export async function linked(
  c: SplitContext,
): Promise<{ record: ServiceTokenRecord; client: ServiceClient } | undefined> {
  const record = await c.deps.tokens.get(c.user);
  if (!record) {
    await promptConnect(c, 'first_time', true);
    return undefined;
  }
  return { record, client: c.deps.service.forLink(record) };
}

/** Removes a link the service no longer takes (a 401) and asks to connect again. */
export async function relink(c: SplitContext): Promise<void> {
  await c.deps.tokens.delete(c.user);
  c.deps.directory.forget(c.user);
  c.logger.info(
    `removed the link of ${c.user.team_id}:${c.user.user_id}: the service answered 401`,
  );
  await promptConnect(c, 'revoked', true);
}

/** Tells the person what failed; `nothingDone` finishes the sentence ("Nothing was changed."). */
export async function tellFailure(
  c: SplitContext,
  error: unknown,
  nothingDone: string,
): Promise<void> {
  const failure = describeServiceFailure(error, nothingDone);
  if (failure.relink) {
    await relink(c);
    return;
  }
  if (!(error instanceof ServiceBaseException)) throw error;
  c.logger.warn(`/split ${c.parsed.kind}: service call failed: ${error.name}: ${error.message}`);
  await c.reply.ephemeral(plainNotice(failure.text));
}
