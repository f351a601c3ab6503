import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AuthEffect, AuthStore } from './auth.js';
import { ControllableClock } from './clock.js';
import { ConsentStore } from './consent-store.js';
import type { Emulator } from './context.js';
import { FaultTable } from './faults.js';
import { answerClientError, MAX_HEADER_BYTES } from './http.js';
import { Ledger, type LedgerEntry } from './ledger.js';
import { DataFile, recover } from './persist.js';
import { RequestLog } from './requestlog.js';
import { createRequestListener } from './server.js';
import { type Clock, systemClock } from './types.js';

export { ControllableClock } from './clock.js';

export interface EmulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Loopback by default: the control plane has no authentication. */
  host?: string;
  /**
   * Keep the state in this JSON file (and FILE.journal beside it): loaded at start if present,
   * every change on disk before it is answered.
   */
  dataFile?: string;
  /** The base clock; the emulator's own clock follows it and can be moved through the control plane. */
  clock?: Clock;
}

export interface RunningEmulator {
  /** http://127.0.0.1:PORT, no trailing slash. */
  url: string;
  port: number;
  ledger: Ledger;
  clock: ControllableClock;
  close(): Promise<void>;
}

/** One line of the --data journal: a change to the ledger or to the credentials. */
type JournalEntry = { k: 'ledger'; e: LedgerEntry } | { k: 'auth'; e: AuthEffect };

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/** The emulator's state and its helpers, before anything listens: shared by both ways to run it. */
export async function createEmulator(
  options: Pick<EmulatorOptions, 'dataFile' | 'clock' | 'host'>,
): Promise<{ emu: Emulator; data: DataFile<JournalEntry> | undefined }> {
  const clock = new ControllableClock(options.clock ?? systemClock);
  const auth = new AuthStore(clock);
  const saved = options.dataFile ? recover<JournalEntry>(options.dataFile) : undefined;
  const snapshot = saved?.snapshot;
  const ledger = snapshot ? Ledger.fromJSON(snapshot.ledger, { clock }) : new Ledger({ clock });
  if (snapshot) auth.load(snapshot.auth);
  for (const entry of saved?.entries ?? []) {
    if (entry.k === 'ledger') ledger.replay(entry.e);
    else auth.replay(entry.e);
  }

  let data: DataFile<JournalEntry> | undefined;
  if (options.dataFile) {
    data = new DataFile<JournalEntry>(
      options.dataFile,
      () => ({ ledger: ledger.toJSON(), auth: auth.toJSON() }),
      saved?.seq ?? 0,
    );
    await data.start();
    const file = data;
    ledger.journal = (e) => file.append({ k: 'ledger', e });
    auth.journal = (e) => file.append({ k: 'auth', e });
  }
  const emu: Emulator = {
    ledger,
    auth,
    clock,
    faults: new FaultTable(),
    log: new RequestLog(),
    consent: new ConsentStore(clock),
    host: options.host ?? '127.0.0.1',
    durable: data ? () => data.durable() : () => undefined,
  };
  return { emu, data };
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const { emu, data } = await createEmulator(options);
  const { ledger, clock } = emu;
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, createRequestListener(emu));
  server.on('clientError', answerClientError);
  // Node's 5 s default lets an idle keep-alive socket close just as a client reuses it, most
  // often after the event loop was busy (seeding thousands of expenses): the client then sees
  // ECONNRESET. A minute makes that race rare; close() still ends every connection at once.
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;
  const host = emu.host;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${urlHost(host)}:${port}`;
  // Receipt URLs in expenses point back at this server (served under /__emulator/receipts/).
  ledger.baseUrl = url;

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    ledger,
    clock,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        // Clients in this same process (tests) learn that their pooled keep-alive sockets were
        // closed only when the event loop next polls; let it, so that a request made right after
        // close() resolves (say, to a restarted emulator on the same port) never picks a dead one.
        // (Sockets are closed in this iteration's close phase; the timer starts the next
        // iteration and the immediate runs after that iteration's poll has read the EOF.)
        await new Promise((resolve) => setTimeout(resolve, 0));
        await new Promise((resolve) => setImmediate(resolve));
        await data?.close();
      })();
      return closing;
    },
  };
}
