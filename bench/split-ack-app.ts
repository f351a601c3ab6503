/**
 * One of the two apps measured by bench/split-ack.ts, in its own process so that neither the load
 * generator nor the other app shares its event loop:
 *
 *   split-ack-app.ts real <world JSON>    the app itself, with Ann and Bob linked
 *   split-ack-app.ts bare <world JSON>    a Bolt app that only acks /split
 *
 * Prints the events URL on stdout, then serves until stdin closes, and reports its CPU time.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from '@slack/bolt';
import { loadConfig } from '../src/config.js';
import { startSlackApp } from '../src/slack/app.js';
import { quietLogger, SIGNING_SECRET } from '../test/support/harness.js';
import type { World } from './split-ack-world.js';

const [kind, json] = process.argv.slice(2);
const world = JSON.parse(json ?? '{}') as World;
let stop: () => Promise<void>;
let url: string;

if (kind === 'bare') {
  const bare = new App({
    token: world.team.botToken,
    botId: world.team.botId,
    botUserId: world.team.botUserId,
    signingSecret: SIGNING_SECRET,
    logger: quietLogger(),
    clientOptions: { slackApiUrl: world.slackApiUrl, retryConfig: { retries: 0 } },
  });
  bare.command('/split', async ({ ack }) => {
    await ack();
  });
  const server = (await bare.start(0)) as Server;
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  stop = async () => {
    await bare.stop();
  };
} else {
  const dir = await mkdtemp(join(tmpdir(), 'split-bench-'));
  const config = loadConfig({
    SLACK_BOT_TOKEN: world.team.botToken,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: world.slackApiUrl,
    SERVICE_API_URL: `${world.emuUrl}/api/v3.0`,
    SERVICE_AUTHORIZE_URL: `${world.emuUrl}/oauth/authorize`,
    SERVICE_TOKEN_URL: `${world.emuUrl}/oauth/token`,
    SERVICE_CLIENT_ID: world.clientId,
    SERVICE_CLIENT_SECRET: world.clientSecret,
    PUBLIC_URL: 'http://split.test',
    PORT: '0',
    STORE_URL: `sqlite://${join(dir, 'app.sqlite')}`,
    LOG_LEVEL: 'error',
  });
  // The daily DM's timer is left off: this measures acks, and its walk would be noise.
  const app = await startSlackApp({
    config,
    logger: quietLogger(),
    slackRetries: 0,
    digest: { scheduler: false },
  });
  for (const link of world.links) {
    await app.deps.tokens.set(
      { team_id: 'T0001', user_id: link.slackId },
      {
        access_token: link.accessToken,
        token_type: 'bearer',
        service_user_id: link.serviceId,
        name: link.name,
        linked_at: new Date().toISOString(),
      },
    );
  }
  url = `${app.url}/slack/events`;
  stop = async () => {
    await app.stop();
    await rm(dir, { recursive: true, force: true });
  };
}

process.stdout.write(`${url}\n`);
process.stdin.resume();
process.stdin.on('end', async () => {
  const cpu = process.cpuUsage();
  process.stderr.write(
    `cpu time of the ${process.argv[2] ?? 'world'} process: user ${(cpu.user / 1000).toFixed(0)} ms system ${(cpu.system / 1000).toFixed(0)} ms\n`,
  );
  await stop();
  process.exit(0);
});
