/**
 * "Pay part…" listeners called directly: the form opened from the control, and its submission
 * checked at once (errors under the field), kept for after the ack, and kept once when the same
 * form is submitted again.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settlePartClicked, settlePartSubmitted } from '../../../src/slack/balances/settle-part.js';
import { putActingVoice } from '../../../src/slack/shared/voice.js';
import {
  type HandlerWorld,
  recorder,
  startHandlerWorld,
  TEAM,
} from '../../support/handler-world.js';

let world: HandlerWorld;
beforeEach(async () => {
  world = await startHandlerWorld();
});
afterEach(() => world.close());

/** Bob owes Ann EUR 30.00, as a balance message's control carries it. */
const REF = { k: 'f', id: 7, c: 'EUR', a: 3000, p: 0, v: 'a', n: 'Bob' };
const RESPONSE_URL = 'https://hooks.slack.test/actions/T0001/1/xyz';

type SubmitArgs = Parameters<ReturnType<typeof settlePartSubmitted>>[0];

async function submit(
  amount: string,
  viewId = 'V0PART1',
  meta: unknown = { r: REF, u: RESPONSE_URL },
) {
  const rec = recorder();
  const view = {
    id: viewId,
    callback_id: 'settle_part_form',
    private_metadata:
      typeof meta === 'string'
        ? meta
        : world.deps.offers.make(
            'pay-part',
            { team_id: TEAM, user_id: 'U0ANN' },
            JSON.stringify(meta),
          ),
    state: {
      values: {
        settle_part_amount: { settle_part_amount: { type: 'plain_text_input', value: amount } },
      },
    },
  };
  const body = {
    type: 'view_submission',
    team: { id: TEAM, domain: 'acme' },
    user: { id: 'U0ANN', team_id: TEAM },
    view,
  };
  const args = {
    ack: rec.ack,
    respond: rec.respond,
    body,
    view,
    payload: view,
    client: world.client,
    logger: world.logger,
    context: { teamId: TEAM, isEnterpriseInstall: false },
    next: async () => undefined,
  };
  putActingVoice(world.deps, args);
  await settlePartSubmitted(world.deps)(args as unknown as SubmitArgs);
  return rec;
}

describe('Pay part…, the form submitted', () => {
  it('keeps a valid amount for after the ack, answering through the balance message', async () => {
    const rec = await submit('12.50');
    expect(rec.acks).toEqual([undefined]);
    await world.settled();
    expect(world.ran).toEqual([
      {
        kind: 'settle-part',
        payload: {
          team_id: TEAM,
          user_id: 'U0ANN',
          ref: REF,
          minor: 1250,
          currency: 'EUR',
          answer: { via: 'response_url', url: RESPONSE_URL },
        },
      },
    ]);
  });

  it('keeps the same form submitted twice once', async () => {
    await submit('5', 'V0TWICE');
    const again = await submit('5', 'V0TWICE');
    await world.settled();
    expect(again.acks).toEqual([undefined]);
    expect(world.ran).toHaveLength(1);
  });

  it.each([
    [
      '31',
      'That is more than the €30.00 owed: it would turn the debt around. Type at most €30.00.',
    ],
    ['0', 'A payment must be more than zero.'],
    ['12 USD', 'This debt is in EUR: type the amount in EUR.'],
  ])('keeps the form open with the reason under the field for %s', async (amount, reason) => {
    const rec = await submit(amount);
    const answer = rec.acks[0] as { response_action: string; errors: Record<string, string> };
    expect(answer.response_action).toBe('errors');
    expect(Object.keys(answer.errors)).toEqual(['settle_part_amount']);
    expect(answer.errors.settle_part_amount).toBe(reason);
    await world.settled();
    expect(world.ran).toEqual([]);
  });

  it('says the form is damaged when its metadata does not parse, and keeps nothing', async () => {
    const rec = await submit('5', 'V0BAD', { r: { k: 'nonsense' } });
    expect(rec.acks).toEqual([
      {
        response_action: 'errors',
        errors: {
          settle_part_amount:
            'This form is damaged. Nothing was recorded. Close it and use Settle up again.',
        },
      },
    ]);
    expect(world.ran).toEqual([]);
  });

  it('keeps the form open saying so when the store cannot keep the payment', async () => {
    await world.store.close();
    const rec = await submit('5');
    const answer = rec.acks[0] as { errors: Record<string, string> };
    expect(answer.errors.settle_part_amount).toMatch(/^I couldn't save this just now/);
  });
});

describe('Pay part…, the control', () => {
  it('opens the form on the click’s trigger, remembering where to answer', async () => {
    const rec = recorder();
    const body = {
      type: 'block_actions',
      team: { id: TEAM, domain: 'acme' },
      user: { id: 'U0ANN', team_id: TEAM },
      trigger_id: '5.5.5',
      response_url: RESPONSE_URL,
      actions: [{ type: 'button', action_id: 'balance_settle_part', value: JSON.stringify(REF) }],
    };
    await settlePartClicked(world.deps)({
      ack: rec.ack,
      respond: rec.respond,
      body,
      action: body.actions[0],
      payload: body.actions[0],
      client: world.client,
      logger: world.logger,
      context: { teamId: TEAM, isEnterpriseInstall: false },
      next: async () => undefined,
    } as unknown as Parameters<ReturnType<typeof settlePartClicked>>[0]);
    expect(rec.acks).toEqual([undefined]);
    expect(world.calls.map((c) => c.method)).toEqual(['views.open']);
    const { trigger_id, view } = world.calls[0]!.args as {
      trigger_id: string;
      view: { callback_id: string; private_metadata: string };
    };
    expect(trigger_id).toBe('5.5.5');
    expect(view.callback_id).toBe('settle_part_form');
    const read = world.deps.offers.read(
      'pay-part',
      { team_id: TEAM, user_id: 'U0ANN' },
      view.private_metadata,
    );
    expect(read.ok && JSON.parse(read.value)).toEqual({ r: REF, u: RESPONSE_URL });
    expect(rec.responses).toEqual([]);
  });
});
