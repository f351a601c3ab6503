/**
 * Fetching a receipt from Slack, as an attacker inside a workspace would try it: a file far larger
 * than a receipt (said by files.info, by content-length, or by neither), a file host that trickles,
 * a download address or a redirect on another host. Nothing larger than the cap is ever held, the
 * download has a time limit, and the bot token reaches only the Slack file host.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FetchedReceipt,
  fetchReceipt,
  RECEIPT_MAX_BYTES,
  ReceiptError,
  receiptProblem,
} from '../../../src/slack/expense-form/receipt/receipt.js';
import { fileHosts } from '../../../src/slack/shared/file-hosts.js';
import { voiceFor } from '../../../src/voice/index.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack.js';

const TOKEN = 'xoxb-receipt-test-token';
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('receipt bytes')]);

interface Seen {
  path: string;
  authorization: string | undefined;
}

/** A file host on a loopback port of its own; records every request and who sent a token. */
async function host(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; origin: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization });
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}`, seen };
}

/** files.info answering with `file`, as a Slack that names any address and size would. */
function slackSaying(file: Record<string, unknown>): webApi.WebClient {
  return { files: { info: async () => ({ ok: true, file }) } } as unknown as webApi.WebClient;
}

async function refusal(fetching: Promise<FetchedReceipt>): Promise<ReceiptError> {
  const error = await fetching.then(
    (got) => {
      void got.remove();
      throw new Error('the receipt was fetched');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ReceiptError);
  return error as ReceiptError;
}

const en = await voiceFor({ locale: 'en-US' });

/** Why the receipt was refused, as an English-speaking person reads it. */
const reason = (error: ReceiptError) => receiptProblem(error.problem, en);

let slack: FakeSlack;
let files: Awaited<ReturnType<typeof host>>;
let elsewhere: Awaited<ReturnType<typeof host>>;
/** Bytes the file host managed to hand to the socket per path, to see where it stopped. */
const written = new Map<string, number>();

beforeAll(async () => {
  slack = await startFakeSlack();
  elsewhere = await host((_req, res) => res.end('stolen'));
  files = await host((req, res) => {
    const path = req.url ?? '';
    const send = (chunk: Buffer) => {
      written.set(path, (written.get(path) ?? 0) + chunk.length);
      return res.write(chunk);
    };
    if (path === '/redirect-away') {
      res.writeHead(302, { location: `${elsewhere.origin}/file` });
      res.end();
    } else if (path === '/declared-huge') {
      // Says 300 MB up front, then sends slowly: the answer is refused on its header.
      res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(300 * 2 ** 20) });
      const timer = setInterval(() => send(Buffer.alloc(64 * 1024)), 20);
      res.on('close', () => clearInterval(timer));
    } else if (path === '/endless') {
      // No length at all, and no end: only the byte cap stops it.
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      const chunk = Buffer.alloc(256 * 1024, 1);
      const pump = () => {
        while (!res.destroyed && send(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    } else if (path === '/trickle') {
      res.writeHead(200, { 'content-type': 'image/png' });
      const timer = setInterval(() => send(Buffer.from('x')), 50);
      res.on('close', () => clearInterval(timer));
    } else if (path === '/sign-in') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html>Sign in to Slack</html>');
    } else {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    }
  });
});
afterAll(async () => {
  for (const s of [files?.server, elsewhere?.server]) {
    s?.closeAllConnections();
    s?.close();
  }
  await slack?.close();
});

/** Every file is the person's own here: what these tests limit is the download. */
const anyFile = () => true;
const allowed = () => ({
  hosts: fileHosts(`${files.origin}/api/`),
  timeoutMs: 2_000,
  mayRead: anyFile,
});
const at = (path: string, extra: Record<string, unknown> = {}) =>
  slackSaying({
    id: 'F1',
    name: 'bill.jpg',
    url_private_download: `${files.origin}${path}`,
    ...extra,
  });

describe('fetching a receipt', () => {
  it('fetches a file from the simulated workspace, with the token, into a file of its own', async () => {
    slack.addFile({ id: 'F0OK', name: 'bill.png', mimetype: 'image/png', content: PNG });
    const client = new webApi.WebClient(slack.team.botToken, { slackApiUrl: slack.url });
    const got = await fetchReceipt(client, slack.team.botToken, 'F0OK', {
      hosts: fileHosts(slack.url),
      mayRead: anyFile,
    });
    try {
      expect(got.name).toBe('bill.png');
      expect(await readFile(got.path)).toEqual(PNG);
    } finally {
      await got.remove();
    }
  });

  it('fetches nothing of a file the person may not read, and names nothing of it', async () => {
    slack.addFile({
      id: 'F0PAYSLIP',
      name: 'payslip-bob.png',
      mimetype: 'image/png',
      content: PNG,
    });
    const client = new webApi.WebClient(slack.team.botToken, { slackApiUrl: slack.url });
    const asked: { id: string; user: string | undefined }[] = [];
    const error = await refusal(
      fetchReceipt(client, slack.team.botToken, 'F0PAYSLIP', {
        hosts: fileHosts(slack.url),
        mayRead: (file) => {
          asked.push(file);
          return file.user === 'U0ANN';
        },
      }),
    );
    expect(asked).toEqual([{ id: 'F0PAYSLIP', user: 'U0000' }]);
    expect(error.problem).toEqual({ kind: 'not_offered' });
    expect(error.fileName).toBeUndefined();
    expect(reason(error)).toBe('it is not a file you shared or were offered here');
    expect(slack.calls.filter((c) => c.method === 'files.info').at(-1)?.args.file).toBe(
      'F0PAYSLIP',
    );
  });

  it('refuses a file files.info says is too large, without asking for its bytes', async () => {
    const big = Buffer.alloc(6 * 2 ** 20);
    slack.addFile({ id: 'F0BIG', name: 'huge.jpg', mimetype: 'image/jpeg', content: big });
    const client = new webApi.WebClient(slack.team.botToken, { slackApiUrl: slack.url });
    const error = await refusal(
      fetchReceipt(client, slack.team.botToken, 'F0BIG', {
        hosts: fileHosts(slack.url),
        mayRead: anyFile,
      }),
    );
    expect(error.fileName).toBe('huge.jpg');
    expect(reason(error)).toBe('it is 6.0 MB, larger than the 4.9 MB a receipt can be');
  });

  it('never sends the token to a download address on another host', async () => {
    const before = elsewhere.seen.length;
    const client = slackSaying({
      id: 'F1',
      name: 'bill.jpg',
      size: 10,
      url_private_download: `${elsewhere.origin}/file`,
    });
    const error = await refusal(fetchReceipt(client, TOKEN, 'F1', allowed()));
    expect(reason(error)).toContain(`its download address is on ${new URL(elsewhere.origin).host}`);
    expect(elsewhere.seen.length).toBe(before);
  });

  it('follows no redirect to another host, so the token stays with the file host', async () => {
    const before = elsewhere.seen.length;
    const error = await refusal(fetchReceipt(at('/redirect-away'), TOKEN, 'F1', allowed()));
    expect(reason(error)).toContain("not on Slack's file host");
    expect(elsewhere.seen.length).toBe(before);
    expect(files.seen.at(-1)).toEqual({ path: '/redirect-away', authorization: `Bearer ${TOKEN}` });
  });

  it('refuses an answer whose content-length is too large before reading its body', async () => {
    const error = await refusal(fetchReceipt(at('/declared-huge'), TOKEN, 'F1', allowed()));
    expect(reason(error)).toBe('it is 300.0 MB, larger than the 4.9 MB a receipt can be');
    expect(written.get('/declared-huge') ?? 0).toBeLessThan(RECEIPT_MAX_BYTES);
  });

  it('stops an answer without a length once it passes the cap', async () => {
    const error = await refusal(fetchReceipt(at('/endless'), TOKEN, 'F1', allowed()));
    expect(reason(error)).toBe('it is larger than the 4.9 MB a receipt can be');
    // What the socket buffers on both sides aside, the host was cut off near the cap.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(written.get('/endless') ?? 0).toBeLessThan(RECEIPT_MAX_BYTES + 16 * 2 ** 20);
  });

  it('gives up on a file host that trickles, at the time limit', async () => {
    const started = Date.now();
    const error = await refusal(
      fetchReceipt(at('/trickle'), TOKEN, 'F1', { ...allowed(), timeoutMs: 400 }),
    );
    expect(reason(error)).toBe('Slack took longer than 400 ms to send it');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("takes Slack's sign-in page for what it is: no file", async () => {
    const error = await refusal(fetchReceipt(at('/sign-in'), TOKEN, 'F1', allowed()));
    expect(reason(error)).toBe("Slack didn't hand it over");
  });
});

describe('the hosts a download may carry the token to', () => {
  it("are Slack's own file hosts when the app talks to Slack itself", () => {
    for (const api of [undefined, 'https://slack.com/api/']) {
      const hosts = fileHosts(api);
      expect(hosts.allows(new URL('https://files.slack.com/files-pri/T1-F1/download/a.png'))).toBe(
        true,
      );
      for (const url of [
        'http://files.slack.com/files-pri/T1-F1/a.png',
        'https://files.slack.com:8443/a.png',
        'https://files.slack.com.evil.example/a.png',
        'https://evil.example/files.slack.com/a.png',
        'https://user:pw@files.slack.com/a.png',
        'http://127.0.0.1:4100/files/F1/a.png',
      ]) {
        expect(hosts.allows(new URL(url)), url).toBe(false);
      }
    }
  });

  it("are the stand-in's own origin when SLACK_API_URL names one", () => {
    const hosts = fileHosts('http://127.0.0.1:4100/api/');
    expect(hosts.allows(new URL('http://127.0.0.1:4100/files/F1/download/a.png'))).toBe(true);
    for (const url of [
      'http://127.0.0.1:4101/files/F1/a.png',
      'http://localhost:4100/files/F1/a.png',
      'https://127.0.0.1:4100/files/F1/a.png',
      'https://files.slack.com/a.png',
    ]) {
      expect(hosts.allows(new URL(url)), url).toBe(false);
    }
  });
});
