/**
 * What is let in to be read, decided from the first bytes alone, before anything is decoded and
 * before the worker starts: the format from its magic bytes (PNG, JPEG, WebP, GIF; anything else
 * is not an image here), the size in bytes, and the pixel count the header announces, so that a
 * small file claiming a huge image (a decompression bomb) is refused without a pixel of it decoded.
 */
import type { ReceiptFailure } from './types.js';

export type ImageFormat = 'png' | 'jpeg' | 'webp' | 'gif';

export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
}

export interface IntakeLimits {
  maxBytes: number;
  maxPixels: number;
}

/** Five megabytes less a margin, as a receipt's download; 24 megapixels (a 12 MP photo twice). */
export const DEFAULT_INTAKE_LIMITS: IntakeLimits = {
  maxBytes: 5 * 1024 * 1024 - 64 * 1024,
  maxPixels: 24_000_000,
};

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32be = (b: Uint8Array, i: number) => u16be(b, i) * 65536 + u16be(b, i + 2);
const ascii = (b: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...b.subarray(from, Math.min(to, b.length)));

/** The format its first bytes say, or null. */
export function sniffFormat(bytes: Uint8Array): ImageFormat | null {
  if (bytes.length >= 8 && u32be(bytes, 0) === 0x89504e47 && u32be(bytes, 4) === 0x0d0a1a0a) {
    return 'png';
  }
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return 'jpeg';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') {
    return 'webp';
  }
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')) {
    return 'gif';
  }
  return null;
}

/** JPEG: walks the segments to the frame header (SOFn); each step skips a whole segment. */
function jpegSize(b: Uint8Array): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
    if (isFrame) return { height: u16be(b, i + 5), width: u16be(b, i + 7) };
    if (marker === 0xda || marker === 0xd9) return null;
    i += 2 + u16be(b, i + 2);
  }
  return null;
}

function webpSize(b: Uint8Array): { width: number; height: number } | null {
  const chunk = ascii(b, 12, 16);
  if (chunk === 'VP8 ' && b.length >= 30) {
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  if (chunk === 'VP8L' && b.length >= 25) {
    const b1 = b[22]!;
    const b2 = b[23]!;
    const b3 = b[24]!;
    return {
      width: 1 + (b[21]! | ((b1 & 0x3f) << 8)),
      height: 1 + ((b1 >> 6) | (b2 << 2) | ((b3 & 0x0f) << 10)),
    };
  }
  if (chunk === 'VP8X' && b.length >= 30) {
    return { width: 1 + u24le(b, 24), height: 1 + u24le(b, 27) };
  }
  return null;
}

/** The format and the dimensions its header announces, or null when it is no image we read. */
export function readHeader(bytes: Uint8Array): ImageHeader | null {
  const format = sniffFormat(bytes);
  let size: { width: number; height: number } | null = null;
  if (format === 'png' && bytes.length >= 24 && ascii(bytes, 12, 16) === 'IHDR') {
    size = { width: u32be(bytes, 16), height: u32be(bytes, 20) };
  } else if (format === 'gif' && bytes.length >= 10) {
    size = { width: u16le(bytes, 6), height: u16le(bytes, 8) };
  } else if (format === 'jpeg') {
    size = jpegSize(bytes);
  } else if (format === 'webp') {
    size = webpSize(bytes);
  }
  if (!format || !size || size.width === 0 || size.height === 0) return null;
  return { format, ...size };
}

/** The header of an image that may be read, or the reason it may not. */
export function admit(
  bytes: Uint8Array,
  limits: IntakeLimits = DEFAULT_INTAKE_LIMITS,
): { ok: true; header: ImageHeader } | ReceiptFailure {
  if (bytes.length > limits.maxBytes) {
    return {
      ok: false,
      reason: 'too_large',
      detail: `${bytes.length} bytes, more than ${limits.maxBytes}`,
    };
  }
  const format = sniffFormat(bytes);
  if (!format) return { ok: false, reason: 'not_image', detail: 'not a PNG, JPEG, WebP or GIF' };
  const header = readHeader(bytes);
  if (!header)
    return { ok: false, reason: 'unreadable', detail: `a ${format} with no readable size` };
  const pixels = header.width * header.height;
  if (pixels > limits.maxPixels) {
    return {
      ok: false,
      reason: 'too_many_pixels',
      detail: `${header.width}x${header.height} ${format}, more than ${limits.maxPixels} pixels`,
    };
  }
  return { ok: true, header };
}
