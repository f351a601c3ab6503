/**
 * The outside world for bench/split-ack.ts, in its own process as it would be in production: the
 * expense emulator and the fake Slack Web API, with Ann and Bob set up in both and Ann holding an
 * OAuth token. Prints one JSON line with what the benchmark needs, then serves until stdin closes.
 */
import { createInterface } from 'node:readline';
import { control, createUser } from '@split/service-emulator/testing';
import { startFakeSlack } from '../packages/app/test/support/fake-slack.js';
import { startEmulator } from '../packages/service-emulator/src/index.js';

export interface World {
  emuUrl: string;
  slackApiUrl: string;
  slackOrigin: string;
  team: { botToken: string; botId: string; botUserId: string };
  clientId: string;
  clientSecret: string;
  links: { slackId: string; serviceId: number; name: string; accessToken: string }[];
}

const emu = await startEmulator();
const slack = await startFakeSlack();
const app = (
  await control(emu.url, 'POST', 'apps', { redirect_uri: 'http://split.test/oauth/callback' })
).body as { client_id: string; client_secret: string };
const people = [
  { slackId: 'U0ANN', first_name: 'Ann', email: 'ann.bench@example.com', default_currency: 'EUR' },
  { slackId: 'U0BOB', first_name: 'Bob', email: 'bob.bench@example.com' },
];
const links = [];
for (const p of people) {
  slack.addUser({
    id: p.slackId,
    name: p.first_name.toLowerCase(),
    real_name: p.first_name,
    email: p.email,
  });
  const created = await createUser(emu.url, p);
  const token = (
    await control(emu.url, 'POST', 'tokens', { user_id: created.user.id, client_id: app.client_id })
  ).body as { access_token: string };
  links.push({
    slackId: p.slackId,
    serviceId: created.user.id,
    name: p.first_name,
    accessToken: token.access_token,
  });
}
process.stdout.write(
  `${JSON.stringify({
    emuUrl: emu.url,
    slackApiUrl: slack.url,
    slackOrigin: slack.origin,
    team: slack.team,
    clientId: app.client_id,
    clientSecret: app.client_secret,
    links,
  } satisfies World)}\n`,
);
// A line "answers" on stdin is answered with one JSON line: when (Date.now()) each response_url
// post arrived, by its id, so that the benchmark can time each /split to its answer.
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() !== 'answers') return;
  const at: Record<string, number> = {};
  for (const r of slack.responses) at[r.id] ??= r.at;
  process.stdout.write(`${JSON.stringify(at)}\n`);
});
process.stdin.on('end', async () => {
  const cpu = process.cpuUsage();
  process.stderr.write(
    `cpu time of the ${process.argv[2] ?? 'world'} process: user ${(cpu.user / 1000).toFixed(0)} ms system ${(cpu.system / 1000).toFixed(0)} ms\n`,
  );
  await Promise.allSettled([emu.close(), slack.close()]);
  process.exit(0);
});
