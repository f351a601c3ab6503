/**
 * Tesseract (tesseract.js's WebAssembly build) run inside the receipt worker itself, without the
 * extra thread tesseract.js would start: its worker script is driven directly, through the same
 * messages its own front end sends, with an adapter of ours. The adapter is the whole of
 * tesseract's contact with the outside: the core is the SIMD LSTM build from the
 * tesseract.js-core package, the language data is read from the @tesseract.js-data packages, and
 * any attempt to fetch refuses, so no reading ever goes to the network, and nothing is written
 * to disk (no cache).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type Box, type OcrLine, RECEIPT_LANGUAGES, type ReceiptLanguage } from './types.js';

const require = createRequire(import.meta.url);

/** Where each language's data lives: the integer-quantised LSTM models, smallest and fastest. */
export function languageFile(language: ReceiptLanguage): string {
  const dir = dirname(require.resolve(`@tesseract.js-data/${language}/package.json`));
  return join(dir, '4.0.0_best_int', `${language}.traineddata.gz`);
}

/** The tesseract core this engine loads, by path. */
export function corePath(): string {
  return require.resolve('tesseract.js-core/tesseract-core-simd-lstm.js');
}

/** The language data folder handed to tesseract; every file in it is resolved by languageFile. */
const LANG_PATH = 'split-receipts-languages';

export class NetworkRefused extends Error {
  override name = 'NetworkRefused';
}

interface Packet {
  status: 'resolve' | 'reject' | 'progress';
  data: unknown;
}

interface WorkerScript {
  setAdapter(adapter: Record<string, unknown>): void;
  dispatchHandlers(
    packet: { workerId: string; jobId: string; action: string; payload: unknown },
    send: (packet: Packet) => void,
  ): void;
}

interface TessBbox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
interface TessWord {
  text: string;
  confidence: number;
  bbox: TessBbox;
}
interface TessLine extends TessWord {
  words: TessWord[];
}
interface TessBlock {
  paragraphs: { lines: TessLine[] }[];
}

const box = (b: TessBbox): Box => ({ x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1 });

export interface Ocr {
  /** Reads the lines of an image (PGM, PNG or JPEG bytes) with the given languages' models. */
  lines(
    image: Uint8Array,
    languages: readonly ReceiptLanguage[],
  ): Promise<{ lines: OcrLine[]; text: string; confidence: number }>;
}

/** Loads tesseract's core. `onFetch` sees any attempt to reach the network (there is none). */
export async function startOcr(onFetch: (url: string) => void = () => {}): Promise<Ocr> {
  const script = require('tesseract.js/src/worker-script/index.js') as WorkerScript;
  const core = corePath();
  script.setAdapter({
    getCore: async () => require(core),
    gunzip: gunzipSync,
    fetch: async (url: string) => {
      onFetch(url);
      throw new NetworkRefused(`the receipt reader never fetches (${url})`);
    },
    readCache: async (path: string) => {
      const prefix = `${LANG_PATH}/`;
      const name = path.startsWith(prefix) ? path.slice(prefix.length) : '';
      const language = name.replace(/\.traineddata(\.gz)?$/, '') as ReceiptLanguage;
      if (!(RECEIPT_LANGUAGES as readonly string[]).includes(language)) {
        throw new Error(`no language data for ${name}`);
      }
      return readFile(languageFile(language));
    },
    writeCache: async () => {},
    deleteCache: async () => {},
    checkCache: async () => false,
  });
  let job = 0;
  const call = (action: string, payload: unknown) =>
    new Promise<unknown>((resolve, reject) => {
      script.dispatchHandlers(
        { workerId: 'receipts', jobId: String(++job), action, payload },
        (packet) => {
          if (packet.status === 'resolve') resolve(packet.data);
          else if (packet.status === 'reject') reject(new Error(String(packet.data)));
        },
      );
    });
  await call('load', { options: { lstmOnly: true, corePath: core, logging: false } });
  const loaded = new Set<ReceiptLanguage>();
  let current = '';
  const use = async (languages: readonly ReceiptLanguage[]) => {
    const missing = languages.filter((language) => !loaded.has(language));
    if (missing.length > 0) {
      await call('loadLanguage', {
        langs: missing,
        options: { langPath: LANG_PATH, cacheMethod: 'none', gzip: true, lstmOnly: true },
      });
      for (const language of missing) loaded.add(language);
    }
    const wanted = languages.join('+');
    if (wanted !== current) {
      await call('initialize', { langs: wanted, oem: 1, config: {} });
      current = wanted;
    }
  };
  return {
    async lines(image, languages) {
      await use(languages);
      const result = (await call('recognize', {
        image,
        // One uniform block of text (a receipt's layout, which found amounts far to the right
        // better than single-column or sparse modes on the benchmark); keep the spaces between.
        // A fixed resolution: tesseract would otherwise estimate one and say so on stderr.
        options: {
          tessedit_pageseg_mode: '6',
          preserve_interword_spaces: '1',
          user_defined_dpi: '300',
        },
        output: { text: true, blocks: true },
      })) as { text: string; confidence: number; blocks: TessBlock[] | null };
      const lines: OcrLine[] = [];
      for (const block of result.blocks ?? []) {
        for (const paragraph of block.paragraphs) {
          for (const line of paragraph.lines) {
            lines.push({
              text: line.text.trim(),
              box: box(line.bbox),
              confidence: line.confidence,
              words: line.words.map((w) => ({
                text: w.text,
                box: box(w.bbox),
                confidence: w.confidence,
              })),
            });
          }
        }
      }
      return { lines, text: result.text, confidence: result.confidence };
    },
  };
}
