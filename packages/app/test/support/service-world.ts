/**
 * The handler world joined to the expense service: the emulator's ledger answers the app's service
 * client in this process, through an in-memory fetch (no port, no socket), and durable jobs run as
 * in the app. A unit test calls a listener, lets its job run, and reads what was booked from the
 * emulator: booking, editing, settling and reminding are tested in milliseconds. Slack is the
 * recording client of handler-world.ts, answering users.info and users.lookupByEmail for the
 * people `link` adds; posts to a response_url are kept in `posts`.
 */
import { type InProcessEmulator, inProcessEmulator } from '@split/service-emulator/testing';
import { ServiceClient } from '../../src/service/index.js';
import { type HandlerWorld, startHandlerWorld, TEAM } from './handler-world.js';

export interface ServicePerson {
  slackId: string;
  serviceId: number;
  email: string;
  name: string;
  /** Sent as a Bearer credential: the app keeps it as the person's token. */
  apiKey: string;
}

export interface PersonInput {
  slackId: string;
  first_name: string;
  last_name?: string;
  default_currency?: string;
  locale?: string;
  tz?: string;
}

/** A post to a response_url: where it went and the message. */
export interface Posted {
  url: string;
  body: Record<string, unknown>;
}

export interface ServiceWorld extends HandlerWorld {
  emu: InProcessEmulator;
  posts: Posted[];
  /** A Slack user, a service user of the same name, and their link kept by the app. */
  link(person: PersonInput): Promise<ServicePerson>;
  /** The service as `person` sees it (their own client). */
  serviceFor(person: ServicePerson): ServiceClient;
}

interface SlackUserJson {
  id: string;
  name: string;
  real_name: string;
  tz?: string;
  locale?: string;
  is_bot: false;
  deleted: false;
  profile: { email: string; real_name: string; display_name: string; first_name: string };
}

export async function startServiceWorld(): Promise<ServiceWorld> {
  const emu = await inProcessEmulator();
  const people = new Map<string, SlackUserJson>();
  const posts: Posted[] = [];
  let ts = 1_700_000_000;
  const world = await startHandlerWorld({
    service: { apiUrl: `${emu.url}/api/v3.0`, fetch: emu.fetch },
    runJobs: true,
    http: async (url, init) => {
      posts.push({ url: String(url), body: JSON.parse(String(init?.body ?? '{}')) });
      return new Response('ok');
    },
    answers: {
      'users.info': ({ user }: Record<string, unknown>) => {
        const found = people.get(String(user));
        return found ? { ok: true, user: found } : new Error('user_not_found');
      },
      'users.lookupByEmail': ({ email }: Record<string, unknown>) => {
        const found = [...people.values()].find((p) => p.profile.email === email);
        return found ? { ok: true, user: found } : new Error('users_not_found');
      },
      'chat.postMessage': ({ channel }: Record<string, unknown>) => {
        ts += 1;
        return { ok: true, channel, ts: `${ts}.000100` };
      },
    },
  });
  let seq = 0;

  async function control(path: string, body: unknown): Promise<Record<string, unknown>> {
    const response = await emu.fetch(`${emu.url}/__emulator/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  }

  return {
    ...world,
    emu,
    posts,
    async link(p) {
      seq += 1;
      const email = `${p.first_name.toLowerCase()}.${seq}@example.com`;
      const name = [p.first_name, p.last_name].filter(Boolean).join(' ');
      people.set(p.slackId, {
        id: p.slackId,
        name: p.first_name.toLowerCase(),
        real_name: name,
        ...(p.tz ? { tz: p.tz } : {}),
        ...(p.locale ? { locale: p.locale } : {}),
        is_bot: false,
        deleted: false,
        profile: { email, real_name: name, display_name: '', first_name: p.first_name },
      });
      const created = (await control('users', {
        email,
        first_name: p.first_name,
        ...(p.last_name ? { last_name: p.last_name } : {}),
        ...(p.default_currency ? { default_currency: p.default_currency } : {}),
      })) as { user: { id: number }; api_key: string };
      await world.deps.tokens.set(
        { team_id: TEAM, user_id: p.slackId },
        {
          access_token: created.api_key,
          token_type: 'bearer',
          service_user_id: created.user.id,
          name,
          linked_at: new Date().toISOString(),
        },
      );
      return {
        slackId: p.slackId,
        serviceId: created.user.id,
        email,
        name,
        apiKey: created.api_key,
      };
    },
    serviceFor: (person) =>
      new ServiceClient({
        baseUrl: `${emu.url}/api/v3.0`,
        oauth2AccessToken: person.apiKey,
        fetch: emu.fetch,
        retries: 0,
      }),
  };
}
