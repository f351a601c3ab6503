/**
 * The intake decides from the first bytes alone: the format by its magic bytes, the byte cap, and
 * the pixel cap from the header, so that a decompression bomb is refused before any decoding.
 */
import jpeg from 'jpeg-js';
import { GifWriter } from 'omggif';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { admit, readHeader } from '../../src/receipts/intake.js';

function pngHeader(width: number, height: number): Uint8Array {
  const b = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  b[24] = 8;
  b[25] = 6;
  return b;
}

describe('intake', () => {
  it('refuses a PNG whose header claims 100,000 x 100,000 pixels, from its 33 bytes alone', () => {
    const bomb = pngHeader(100_000, 100_000);
    expect(admit(bomb)).toMatchObject({ ok: false, reason: 'too_many_pixels' });
  });

  it('refuses a text file as not an image', () => {
    expect(admit(new TextEncoder().encode('TOTAL 12.50\n'))).toMatchObject({
      ok: false,
      reason: 'not_image',
    });
    expect(admit(new Uint8Array())).toMatchObject({ ok: false, reason: 'not_image' });
  });

  it('refuses more bytes than the cap before looking further', () => {
    const big = new Uint8Array(2000);
    big.set(pngHeader(10, 10));
    expect(admit(big, { maxBytes: 1000, maxPixels: 1e6 })).toMatchObject({
      ok: false,
      reason: 'too_large',
    });
  });

  it('calls an image with no size in its header unreadable', () => {
    expect(admit(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]))).toMatchObject({
      ok: false,
      reason: 'unreadable',
    });
  });

  it('reads the size of a PNG, a JPEG, a GIF and a WebP from their headers', () => {
    const png = new PNG({ width: 7, height: 5 });
    expect(readHeader(PNG.sync.write(png))).toEqual({ format: 'png', width: 7, height: 5 });
    const raw = { width: 9, height: 4, data: Buffer.alloc(9 * 4 * 4, 200) };
    expect(readHeader(jpeg.encode(raw, 80).data)).toEqual({ format: 'jpeg', width: 9, height: 4 });
    const gif = Buffer.alloc(1024);
    const writer = new GifWriter(gif, 6, 3, { palette: [0, 0xffffff] });
    writer.addFrame(
      0,
      0,
      6,
      3,
      Array.from({ length: 18 }, () => 1),
    );
    expect(readHeader(gif.subarray(0, writer.end()))).toEqual({
      format: 'gif',
      width: 6,
      height: 3,
    });
    const webp = Buffer.alloc(30);
    webp.write('RIFF', 0, 'latin1');
    webp.write('WEBPVP8X', 8, 'latin1');
    webp.writeUIntLE(1919, 24, 3);
    webp.writeUIntLE(1079, 27, 3);
    expect(readHeader(webp)).toEqual({ format: 'webp', width: 1920, height: 1080 });
  });

  it('admits an image within the caps', () => {
    expect(admit(pngHeader(1000, 2000))).toEqual({
      ok: true,
      header: { format: 'png', width: 1000, height: 2000 },
    });
  });
});
