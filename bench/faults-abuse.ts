/**
 * bench/faults.ts, parts `receipt` and `abuse`: what someone inside a workspace can make the app
 * do, measured on the app's own process (a child of this one, as in the other parts).
 *
 * For each case: the app's resident memory (VmRSS, sampled every 20 ms) before and at its peak,
 * and the longest answer to GET /healthz while the case runs, asked every 20 ms from a worker
 * thread of its own (so this process's own work, serving the files, does not lengthen it).
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { call, type Loose } from '@split/service-emulator/testing';
import { createJobs } from '../packages/app/src/store/index.js';
import {
  type AppChild,
  type CrashWorld,
  eventually,
} from '../packages/app/test/support/crash-support.js';
import { SIGNING_SECRET, TEAM } from '../packages/app/test/support/harness.js';
import {
  blockActions,
  eventCallback,
  messageShortcut,
  send,
} from '../packages/app/test/support/slack-requests.js';

const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
let max = 0, probes = 0, failed = 0, stop = false;
parentPort.on('message', () => { stop = true; });
(async () => {
  while (!stop) {
    const t0 = performance.now();
    try { const r = await fetch(workerData.url); await r.arrayBuffer(); if (!r.ok) failed++; }
    catch { failed++; }
    max = Math.max(max, performance.now() - t0); probes++;
    await new Promise((r) => setTimeout(r, 20));
  }
  parentPort.postMessage({ max, probes, failed });
})();`;

export interface Watched {
  baseMb: number;
  peakMb: number;
  healthzMaxMs: number;
  probes: number;
}

/** Watches the app's memory and /healthz until `stop`. */
async function watch(app: AppChild): Promise<{ stop(): Promise<Watched> }> {
  const base = app.eventsUrl.replace(/\/slack\/events$/, '');
  // Settled first: past the metrics library's deferred load (a second after the start), a few
  // /healthz answers, then the resting size.
  await sleep(1_500);
  for (let i = 0; i < 5; i++) await (await fetch(`${base}/healthz`)).arrayBuffer();
  await sleep(200);
  const baseMb = rssMb(app.pid);
  let peakMb = baseMb;
  const sampler = setInterval(() => {
    peakMb = Math.max(peakMb, rssMb(app.pid));
  }, 20);
  const worker = new Worker(PROBE, { eval: true, workerData: { url: `${base}/healthz` } });
  return {
    async stop() {
      clearInterval(sampler);
      peakMb = Math.max(peakMb, rssMb(app.pid));
      const done = new Promise<{ max: number; probes: number }>((resolve) =>
        worker.once('message', resolve),
      );
      worker.postMessage('stop');
      const probe = await done;
      await worker.terminate();
      return { baseMb, peakMb, healthzMaxMs: probe.max, probes: probe.probes };
    },
  };
}

const fmt = (w: Watched) =>
  `RSS ${w.baseMb.toFixed(0)} -> peak ${w.peakMb.toFixed(0)} MB (+${(w.peakMb - w.baseMb).toFixed(0)}), /healthz at most ${w.healthzMaxMs.toFixed(0)} ms over ${w.probes} probes`;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A Slack in front of the simulated one, for the cases its own honest answers do not make:
 * files.info says no size, file bytes come without a content-length (chunked), one file host
 * trickles a byte every 100 ms, and one file's address is on another loopback port.
 */
async function lyingSlack(world: CrashWorld, away: string) {
  const slackOrigin = new URL(world.slack.url).origin;
  let origin = '';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const path = req.url ?? '/';
      if (path.startsWith('/files/F0SLOW/')) {
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        const timer = setInterval(() => res.write('x'), 100);
        res.on('close', () => clearInterval(timer));
        return;
      }
      const sent = await body(req);
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type']) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const answer = await fetch(`${slackOrigin}${path}`, {
        method: req.method ?? 'GET',
        headers,
        ...(sent.length > 0 ? { body: sent } : {}),
      });
      if (path.startsWith('/api/files.info')) {
        const json = (await answer.json()) as Loose;
        if (json.file) {
          delete json.file.size;
          const host = json.file.id === 'F0AWAY' ? away : origin;
          for (const field of ['url_private', 'url_private_download'])
            json.file[field] = String(json.file[field]).replace(slackOrigin, host);
        }
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
        return;
      }
      // No content-length: the bytes arrive chunked, as many as there are.
      res.writeHead(answer.status, {
        'content-type': answer.headers.get('content-type') ?? 'application/octet-stream',
      });
      if (answer.body) {
        for await (const chunk of answer.body) {
          if (res.destroyed) break;
          if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
        }
      }
      res.end();
    })().catch(() => res.destroy());
  });
  origin = await listen(server);
  return { server, apiUrl: `${origin}/api/` };
}

async function formCase(
  world: CrashWorld,
  options: Record<string, unknown>,
  name: string,
  env: Record<string, string>,
  file: string,
): Promise<void> {
  const app = await world.start(options, env);
  try {
    // Warm: a form without a receipt first, so that the case measures the receipt alone.
    const warm = `warm ${file} ${Date.now().toString(36)}`;
    await world.submitForm(app, warm);
    await eventually(() => world.formAnswers(warm) >= 1, 15_000, 'the warm-up');
    const watcher = await watch(app);
    const description = `receipt ${file} ${Date.now().toString(36)}`;
    const since = world.slack.now();
    const started = Date.now();
    await world.submitForm(app, description, undefined, [file]);
    await eventually(() => world.formAnswers(description) >= 1, 60_000, 'the booking').catch(
      () => undefined,
    );
    const answeredMs = Date.now() - started;
    const w = await watcher.stop();
    const notice = world.slack
      .callsTo('chat.postEphemeral')
      .find((c) => c.at >= since && String(c.args.text).includes("couldn't attach"));
    console.log(`  ${name}`);
    console.log(`    ${fmt(w)}`);
    console.log(
      `    booked: ${world.formAnswers(description) >= 1 ? 'yes' : 'no'} in ${(answeredMs / 1000).toFixed(1)} s; receipt left out: ${
        notice
          ? String(notice.args.text)
              .replace(/^I couldn't attach /, '')
              .replace(/ I'm booking .*$/, '')
          : 'no'
      }`,
    );
  } finally {
    await app.stop();
  }
}

/** Receipts an attacker chooses: 300 MB, sizes unsaid, a trickle, another host. */
export async function receiptAbuse(world: CrashWorld, options: Record<string, unknown>) {
  const big = Buffer.alloc(300 * MB, 0x20);
  big.write('\xff\xd8\xff\xe0', 0, 'latin1');
  world.slack.addFile({ id: 'F0BIG', name: 'huge.jpg', mimetype: 'image/jpeg', content: big });
  world.slack.addFile({ id: 'F0SLOW', name: 'slow.jpg', mimetype: 'image/jpeg', content: 'x' });
  world.slack.addFile({
    id: 'F0FINE',
    name: 'fine.jpg',
    mimetype: 'image/jpeg',
    content: big.subarray(0, 4 * MB),
  });
  world.slack.addFile({ id: 'F0AWAY', name: 'away.jpg', mimetype: 'image/jpeg', content: 'x' });
  const tokens: string[] = [];
  const awayServer = createServer((req, res) => {
    tokens.push(req.headers.authorization ?? '(none)');
    res.end('x');
  });
  const away = await listen(awayServer);
  const lying = await lyingSlack(world, away);
  try {
    console.log(
      'receipts (expense form, a 300 MB "jpg" and others, from the simulated workspace):',
    );
    await formCase(world, options, '(control) a 4 MB jpg, attached', {}, 'F0FINE');
    await formCase(world, options, '300 MB jpg, its size in files.info', {}, 'F0BIG');
    await formCase(
      world,
      options,
      '300 MB jpg, no size in files.info, no content-length (chunked)',
      { SLACK_API_URL: lying.apiUrl },
      'F0BIG',
    );
    await formCase(
      world,
      options,
      'a file host sending one byte every 100 ms',
      { SLACK_API_URL: lying.apiUrl },
      'F0SLOW',
    );
    await formCase(
      world,
      options,
      'a download address on another loopback port',
      { SLACK_API_URL: lying.apiUrl },
      'F0AWAY',
    );
    console.log(
      `    requests that reached the other port: ${tokens.length}, with the bot token: ${tokens.filter((t) => t.startsWith('Bearer xoxb-')).length}`,
    );
  } finally {
    awayServer.close();
    lying.server.closeAllConnections();
    lying.server.close();
  }
}

async function signed(app: AppChild, request: Parameters<typeof send>[2]): Promise<Response> {
  const response = await send(app.eventsUrl, SIGNING_SECRET, request);
  await response.arrayBuffer();
  return response;
}

/** Rows of the app's SQLite store that mention `text`. */
async function rowsNaming(storeUrl: string, text: string): Promise<number> {
  const { default: sqlite3 } = await import('sqlite3');
  const db = new sqlite3.Database(storeUrl.replace(/^sqlite:\/\//, ''));
  const all = (sql: string) =>
    new Promise<Record<string, unknown>[]>((resolve, reject) =>
      db.all(sql, (error, rows) => (error ? reject(error) : resolve(rows as never))),
    );
  try {
    let found = 0;
    for (const { name } of await all("SELECT name FROM sqlite_master WHERE type = 'table'")) {
      for (const row of await all(`SELECT * FROM "${String(name)}"`))
        if (JSON.stringify(row).includes(text)) found += 1;
    }
    return found;
  } finally {
    db.close();
  }
}

/** Texts and clicks an attacker inside the workspace sends. */
export async function workspaceAbuse(world: CrashWorld, options: Record<string, unknown>) {
  // Two crowds, so that the second case finds none of the first one's lookups cached.
  const crowd = (prefix: string) =>
    Array.from({ length: 400 }, (_, i) => {
      const id = `U0${prefix}${String(i).padStart(4, '0')}`;
      world.slack.addUser({
        id,
        name: id,
        real_name: `${prefix} ${i}`,
        email: `${id}@example.com`,
      });
      return id;
    });
  const people = crowd('M');
  const others = crowd('S');
  const app = await world.start(options);
  const infos = () => world.slack.callsTo('users.info').length;
  try {
    // Warm: the first command's path (modules, JIT, connections) is not the attack's cost.
    const warm = await world.command(app, '2 warm up <@U0BOB>');
    await eventually(() => world.answers(warm).length > 0, 15_000, 'the warm-up');
    console.log('texts and clicks from inside the workspace:');
    const run = async (name: string, act: () => Promise<string>) => {
      const watcher = await watch(app);
      const before = infos();
      const outcome = await act();
      // Until the lookups stop: a second with no new users.info call.
      let seen = -1;
      for (let i = 0; i < 100 && seen !== infos(); i++) {
        seen = infos();
        await sleep(1_000);
      }
      const w = await watcher.stop();
      console.log(`  ${name}`);
      console.log(`    ${fmt(w)}; users.info calls: ${infos() - before}; ${outcome}`);
    };
    await run('(control) an ordinary /split 12 lunch <@U0BOB>', async () => {
      const sent = await world.command(app, '12 lunch <@U0BOB>');
      await eventually(() => world.answers(sent).length > 0, 10_000, 'an answer');
      return 'booked';
    });
    await run('/split 1000 lunch naming 400 people', async () => {
      const sent = await world.command(app, `1000 lunch ${people.map((p) => `<@${p}>`).join(' ')}`);
      return `ack ${sent.status}`;
    });
    await run('/split of 4,000 characters: "<@U1|" over and over, never closed', async () => {
      const sent = await world.command(app, '<@U1|'.repeat(800));
      await eventually(() => world.answers(sent).length > 0, 10_000, 'an answer').catch(
        () => undefined,
      );
      return `answered: ${world.answers(sent).length > 0 ? 'yes' : 'no'}`;
    });
    await run('"Split this" on a 40,000-character message naming 400 people', async () => {
      const text = `Dinner 400 ${others.map((p) => `<@${p}|someone>`).join(' ')} `.padEnd(
        40_000,
        'x',
      );
      const before = world.slack.callsTo('views.update').length;
      await signed(
        app,
        messageShortcut({ trigger_id: world.slack.issueTrigger(), message: { text } }),
      );
      await eventually(
        () => world.slack.callsTo('views.update').length > before,
        15_000,
        'the form',
      ).catch(() => undefined);
      return `form filled: ${world.slack.callsTo('views.update').length > before ? 'yes' : 'no'}`;
    });

    await run('"Split this" on 40,000 characters of "<@U1|", never closed', async () => {
      const before = world.slack.callsTo('views.update').length;
      await signed(
        app,
        messageShortcut({
          trigger_id: world.slack.issueTrigger(),
          message: { text: '<@U1|'.repeat(8_000) },
        }),
      );
      await eventually(
        () => world.slack.callsTo('views.update').length > before,
        15_000,
        'the form',
      ).catch(() => undefined);
      return `form filled: ${world.slack.callsTo('views.update').length > before ? 'yes' : 'no'}`;
    });

    // Undo pressed by someone on the expense who did not book it.
    const booked = await world.command(app, '14 coffee <@U0BOB>');
    await eventually(() => world.answers(booked).length > 0, 15_000, 'the booking');
    const blocks = (world.answers(booked)[0]!.body as Loose).blocks as Loose[];
    const undo = blocks.find((b) => b.type === 'actions').elements[0];
    const id = world.slack.responseUrl({ id: 'bench-undo' });
    await signed(
      app,
      blockActions({
        user_id: 'U0BOB',
        actions: { action_id: 'expense_undo', block_id: 'expense_actions', value: undo.value },
        message: { ts: '1700000000.000900', text: 'coffee', blocks },
        response_url: id,
      }),
    );
    await eventually(
      () => world.slack.responses.some((p) => p.id === 'bench-undo'),
      10_000,
      'the refusal',
    ).catch(() => undefined);
    const expense = await call(
      world.emu.url,
      world.annKey,
      'GET',
      `get_expense/${JSON.parse(undo.value).e}`,
    );
    console.log(
      `  Undo on Ann's booking pressed by Bob: ${expense.body.expense.deleted_at ? 'DELETED' : 'refused, the expense stays'}`,
    );

    // Bob books and reminds Ann (a claim naming both), and has a command acknowledged by a
    // replica that stopped before answering it (a job naming him). Then he disconnects, then the
    // workspace uninstalls.
    const tea = await world.command(app, '8 tea <@U0ANN>', undefined, 'U0BOB');
    await eventually(() => world.answers(tea).length > 0, 15_000, 'the tea');
    const remind = await world.command(app, 'remind <@U0ANN>', undefined, 'U0BOB');
    await eventually(() => world.answers(remind).length > 0, 15_000, 'the reminder');
    const replica = createJobs(world.storeUrl, { namespace: 'slack' });
    await replica.add(
      `command:${TEAM}:T0BENCHPENDING`,
      { kind: 'split', data: { text: '5 cake' }, by: `${TEAM}:U0BOB` },
      10 * 60_000,
    );
    await replica.close();
    const before = await rowsNaming(world.storeUrl, 'U0BOB');
    const out = await world.command(app, 'disconnect', undefined, 'U0BOB');
    await eventually(() => world.answers(out).length > 0, 10_000, 'disconnect');

    await sleep(300);
    const afterBob = await rowsNaming(world.storeUrl, 'U0BOB');
    const teamBefore = await rowsNaming(world.storeUrl, TEAM);
    await signed(app, eventCallback({ type: 'app_uninstalled' }));
    await sleep(1_000);
    const teamAfter = await rowsNaming(world.storeUrl, TEAM);

    console.log(
      `  rows naming Bob: ${before} before /split disconnect, ${afterBob} after; rows naming the workspace: ${teamBefore} before app_uninstalled, ${teamAfter} after`,
    );
  } finally {
    await app.stop();
  }
}
