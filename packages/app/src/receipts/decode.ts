/**
 * Decoding an admitted image to one grey channel, in the worker. Pure JavaScript decoders (and
 * libwebp as WebAssembly), so that everything a decode holds lives in the worker's own heap and
 * goes back to the system when the worker stops; docs/receipts.md has the measurements behind
 * the choice. Colour is dropped at once: a 12 MP photo is 12 MB grey rather than 48 MB RGBA.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import decodeWebp, { init as initWebp } from '@jsquash/webp/decode.js';
import jpeg from 'jpeg-js';
import { GifReader } from 'omggif';
import { PNG } from 'pngjs';
import type { ImageHeader } from './intake.js';

export interface GreyImage {
  width: number;
  height: number;
  /** One byte a pixel, row by row; 0 black, 255 white. */
  data: Uint8Array;
}

/** RGBA (alpha over white) to grey, with the Rec. 601 weights, in integers. */
function greyFromRgba(
  rgba: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  channels = 4,
): GreyImage {
  const data = new Uint8Array(width * height);
  for (let i = 0, j = 0; i < data.length; i++, j += channels) {
    const y = (rgba[j]! * 299 + rgba[j + 1]! * 587 + rgba[j + 2]! * 114) / 1000;
    const a = channels === 4 ? rgba[j + 3]! : 255;
    data[i] = Math.round((y * a + 255 * (255 - a)) / 255);
  }
  return { width, height, data };
}

let webpReady: Promise<void> | null = null;

async function webpModule(): Promise<void> {
  // The codec's own loader would fetch its .wasm by URL; it is read from the package instead.
  const require = createRequire(import.meta.url);
  const wasm = await readFile(require.resolve('@jsquash/webp/codec/dec/webp_dec.wasm'));
  // The global is there in Node; the type library of this project (no DOM) leaves it undeclared.
  const { WebAssembly: wasmApi } = globalThis as unknown as {
    WebAssembly: { compile(bytes: Uint8Array): Promise<Parameters<typeof initWebp>[0]> };
  };
  await initWebp(await wasmApi.compile(wasm));
}

/**
 * The image as grey pixels. `maxPixels` is checked again against what the decoder finds, since a
 * GIF's frame or a JPEG's later frame header could disagree with what was admitted.
 */
export async function decodeGrey(
  bytes: Uint8Array,
  header: ImageHeader,
  maxPixels: number,
): Promise<GreyImage> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (header.format) {
    case 'png': {
      const png = PNG.sync.read(buffer);
      return greyFromRgba(png.data, png.width, png.height);
    }
    case 'jpeg': {
      const image = jpeg.decode(buffer, {
        useTArray: true,
        formatAsRGBA: false,
        tolerantDecoding: true,
        maxResolutionInMP: maxPixels / 1_000_000,
        maxMemoryUsageInMB: Math.ceil((maxPixels * 4) / 1_000_000) + 64,
      });
      return greyFromRgba(image.data, image.width, image.height, 3);
    }
    case 'gif': {
      const gif = new GifReader(buffer);
      if (gif.width * gif.height > maxPixels) throw new Error('gif larger than admitted');
      const rgba = new Uint8Array(gif.width * gif.height * 4);
      gif.decodeAndBlitFrameRGBA(0, rgba);
      return greyFromRgba(rgba, gif.width, gif.height);
    }
    case 'webp': {
      webpReady ??= webpModule();
      await webpReady;
      const copy = bytes.slice().buffer;
      const image = await decodeWebp(copy);
      return greyFromRgba(image.data, image.width, image.height);
    }
  }
}
