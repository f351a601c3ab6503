/**
 * What the simulated workspace adds to a round trip between the page and the app.
 *
 *   npx tsx bench/workspace.ts     BENCH_REQUESTS=N requests per round (200), BENCH_ROUNDS=N (9)
 *
 * A tiny app on loopback checks each request's signature and acks with a text. Each round sends
 * the same number of slash commands, one at a time, two ways, alternating which goes first:
 * direct (this process signs the command and posts it to the app, as a test would) and through
 * the workspace (the page's `POST /workspace-api/message` with `/split ...`: the workspace issues
 * a trigger id and a response_url, signs, delivers, waits for the ack and turns it into a private
 * message before answering the page). Reported: the median round trip of each way (median of the
 * rounds' medians) and their difference, the target being <= 5 ms added; and, for information,
 * the page's refetch of its state (`GET /workspace-api/state`) once the message is there.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { seedDemoWorkspace, startWorkspace } from '../packages/slack-workspace/src/index.js';
import { slashCommand } from '../packages/slack-workspace/src/payloads.js';
import { signedPost } from '../packages/slack-workspace/src/signing.js';
import { median } from './median.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const SECRET = 'bench-signing-secret';
const TARGET_MS = 5;

async function startEchoApp() {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const timestamp = String(req.headers['x-slack-request-timestamp'] ?? '');
    const expected = `v0=${createHmac('sha256', SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`;
    const given = String(req.headers['x-slack-signature'] ?? '');
    if (
      given.length !== expected.length ||
      !timingSafeEqual(Buffer.from(given), Buffer.from(expected))
    ) {
      res.writeHead(401).end();
      return;
    }
    const text = new URLSearchParams(body).get('text') ?? '';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ text: `echo ${text}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function main() {
  const app = await startEchoApp();
  const ws = await startWorkspace({ appUrl: app.url, signingSecret: SECRET });
  seedDemoWorkspace(ws);
  const page = `${ws.url}/workspace-api`;

  const direct = async (i: number) => {
    const request = slashCommand({ text: `${i} coffee`, user_id: 'U0ADA' });
    const started = performance.now();
    const response = await signedPost(app.url, SECRET, request.body, request.contentType);
    await response.text();
    if (response.status !== 200) throw new Error(`direct: status ${response.status}`);
    return performance.now() - started;
  };
  const viaWorkspace = async (i: number) => {
    const started = performance.now();
    const response = await fetch(`${page}/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ as: 'U0ADA', channel: 'C0LUNCH', text: `/split ${i} coffee` }),
    });
    const answer = (await response.json()) as { ok: boolean };
    if (!answer.ok) throw new Error('workspace: the page request failed');
    return performance.now() - started;
  };
  const refetch = async () => {
    const started = performance.now();
    const response = await fetch(`${page}/state?as=U0ADA`);
    await response.json();
    return performance.now() - started;
  };

  // Warm-up: connections, JIT.
  for (let i = 0; i < 50; i++) {
    await direct(i);
    await viaWorkspace(i);
  }
  // The warm-up's messages would make the refetches below measure a longer channel.
  ws.restore({ ...ws.snapshot(), messages: [] });

  const rounds: { direct: number; workspace: number; state: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const d: number[] = [];
    const w: number[] = [];
    const s: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      if ((round + i) % 2 === 0) {
        d.push(await direct(i));
        w.push(await viaWorkspace(i));
      } else {
        w.push(await viaWorkspace(i));
        d.push(await direct(i));
      }
    }
    for (let i = 0; i < 50; i++) s.push(await refetch());
    rounds.push({ direct: median(d), workspace: median(w), state: median(s) });
    ws.restore({ ...ws.snapshot(), messages: [] });
  }
  const delivered = ws.deliveries.filter((d) => d.kind === 'command');
  if (delivered.some((d) => d.status !== 200)) throw new Error('some commands were not acked');

  const directMs = median(rounds.map((r) => r.direct));
  const workspaceMs = median(rounds.map((r) => r.workspace));
  const added = workspaceMs - directMs;
  const fmt = (ms: number) => ms.toFixed(2);
  console.log(`rounds ${ROUNDS} x ${REQUESTS} commands, sequential, Node ${process.version}`);
  console.log(`direct (signed post to the app)     median ${fmt(directMs)} ms`);
  console.log(`through the workspace (page -> app) median ${fmt(workspaceMs)} ms`);
  console.log(`added by the workspace              ${fmt(added)} ms (target <= ${TARGET_MS} ms)`);
  console.log(
    `page state refetch, ${REQUESTS} messages in the channel   median ${fmt(median(rounds.map((r) => r.state)))} ms`,
  );
  console.log(`per round added: ${rounds.map((r) => fmt(r.workspace - r.direct)).join(' ')}`);
  await ws.close();
  await app.close();
  process.exitCode = added <= TARGET_MS ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
