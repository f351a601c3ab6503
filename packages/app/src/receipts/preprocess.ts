/**
 * Making a phone photo of a receipt readable: down to a working size, cropped to the paper,
 * straightened (a few degrees either way), the uneven light of a photo flattened, the contrast
 * stretched, and the result sized so that the text is as tall as the OCR engine reads best. All
 * on one grey channel, in plain loops whose cost is linear in the pixels.
 */
import type { GreyImage } from './decode.js';

/** The longest side worked on before cropping; a 12 MP photo is averaged down first. */
const WORKING_SIDE = 2400;
/** The paper's width after resizing: receipts' text then stands 20 to 40 pixels tall. */
const PAPER_MIN_WIDTH = 1000;
const PAPER_MAX_WIDTH = 1400;
/** The largest image handed to the OCR engine. */
const MAX_OUTPUT_PIXELS = 5_000_000;
const MAX_SKEW_DEGREES = 6;

function image(width: number, height: number, fill = 255): GreyImage {
  return { width, height, data: new Uint8Array(width * height).fill(fill) };
}

/** Averages blocks of factor x factor pixels. */
export function shrink(src: GreyImage, factor: number): GreyImage {
  if (factor <= 1) return src;
  const width = Math.max(1, Math.floor(src.width / factor));
  const height = Math.max(1, Math.floor(src.height / factor));
  const out = image(width, height);
  const sums = new Uint32Array(width);
  const area = factor * factor;
  for (let y = 0; y < height; y++) {
    sums.fill(0);
    for (let dy = 0; dy < factor; dy++) {
      const row = (y * factor + dy) * src.width;
      for (let x = 0; x < width; x++) {
        let s = 0;
        const start = row + x * factor;
        for (let dx = 0; dx < factor; dx++) s += src.data[start + dx]!;
        sums[x]! += s;
      }
    }
    for (let x = 0; x < width; x++) out.data[y * width + x] = Math.round(sums[x]! / area);
  }
  return out;
}

/** Bilinear resampling to a new size. */
export function resize(src: GreyImage, width: number, height: number): GreyImage {
  const out = image(width, height);
  const sx = src.width / width;
  const sy = src.height / height;
  for (let y = 0; y < height; y++) {
    const fy = Math.max(0, (y + 0.5) * sy - 0.5);
    const y0 = Math.min(src.height - 1, Math.floor(fy));
    const y1 = Math.min(src.height - 1, y0 + 1);
    const wy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.max(0, (x + 0.5) * sx - 0.5);
      const x0 = Math.min(src.width - 1, Math.floor(fx));
      const x1 = Math.min(src.width - 1, x0 + 1);
      const wx = fx - x0;
      const top = src.data[y0 * src.width + x0]! * (1 - wx) + src.data[y0 * src.width + x1]! * wx;
      const bottom =
        src.data[y1 * src.width + x0]! * (1 - wx) + src.data[y1 * src.width + x1]! * wx;
      out.data[y * width + x] = Math.round(top * (1 - wy) + bottom * wy);
    }
  }
  return out;
}

/** Otsu's threshold of a histogram: the grey level that best splits it in two. */
export function otsu(histogram: ArrayLike<number>): number {
  let total = 0;
  let sum = 0;
  for (let i = 0; i < 256; i++) {
    total += histogram[i]!;
    sum += i * histogram[i]!;
  }
  let below = 0;
  let sumBelow = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    below += histogram[t]!;
    if (below === 0) continue;
    const above = total - below;
    if (above === 0) break;
    sumBelow += t * histogram[t]!;
    const meanBelow = sumBelow / below;
    const meanAbove = (sum - sumBelow) / above;
    const between = below * above * (meanBelow - meanAbove) ** 2;
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}

/** The grey level below which a share `p` of the pixels lies. */
function percentile(data: Uint8Array, p: number): number {
  const h = histogramOf(data);
  let seen = 0;
  for (let level = 0; level < 256; level++) {
    seen += h[level]!;
    if (seen >= data.length * p) return level;
  }
  return 255;
}

function histogramOf(data: Uint8Array): Uint32Array {
  const h = new Uint32Array(256);
  for (let i = 0; i < data.length; i++) h[data[i]!]!++;
  return h;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The paper: the largest bright region of a coarse view of the image, with a margin. The whole
 * image when no region stands out (a scan, a screenshot, paper filling the frame).
 */
export function findPaper(src: GreyImage): Rect {
  const whole = { x: 0, y: 0, width: src.width, height: src.height };
  const block = Math.max(4, Math.round(Math.min(src.width, src.height) / 48));
  const coarse = shrink(src, block);
  const t = otsu(histogramOf(coarse.data));
  const { width, height, data } = coarse;
  const seen = new Uint8Array(width * height);
  let best: { x0: number; y0: number; x1: number; y1: number; size: number } | null = null;
  const stack: number[] = [];
  for (let start = 0; start < data.length; start++) {
    if (seen[start] || data[start]! <= t) continue;
    seen[start] = 1;
    stack.push(start);
    let size = 0;
    let x0 = width;
    let y0 = height;
    let x1 = 0;
    let y1 = 0;
    while (stack.length > 0) {
      const at = stack.pop()!;
      const x = at % width;
      const y = (at - x) / width;
      size++;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      for (const next of [
        x > 0 ? at - 1 : -1,
        x < width - 1 ? at + 1 : -1,
        at - width,
        at + width,
      ]) {
        if (next >= 0 && next < data.length && !seen[next] && data[next]! > t) {
          seen[next] = 1;
          stack.push(next);
        }
      }
    }
    if (!best || size > best.size) best = { x0, y0, x1, y1, size };
  }
  if (!best) return whole;
  const boxArea = (best.x1 - best.x0 + 1) * (best.y1 - best.y0 + 1);
  if (boxArea > 0.9 * width * height || best.size < 0.08 * width * height) return whole;
  const margin = 1;
  const x = Math.max(0, (best.x0 - margin) * block);
  const y = Math.max(0, (best.y0 - margin) * block);
  return {
    x,
    y,
    width: Math.min(src.width, (best.x1 + 1 + margin) * block) - x,
    height: Math.min(src.height, (best.y1 + 1 + margin) * block) - y,
  };
}

export function crop(src: GreyImage, r: Rect): GreyImage {
  const out = image(r.width, r.height);
  for (let y = 0; y < r.height; y++) {
    const from = (r.y + y) * src.width + r.x;
    out.data.set(src.data.subarray(from, from + r.width), y * r.width);
  }
  return out;
}

/**
 * Uneven light flattened: each pixel divided by the paper's brightness around it (the brightest
 * of its block, smoothed and interpolated), so a shadow across the receipt no longer reads as ink.
 */
export function flatten(src: GreyImage): GreyImage {
  const block = Math.max(16, Math.round(Math.max(src.width, src.height) / 40));
  const bw = Math.ceil(src.width / block);
  const bh = Math.ceil(src.height / block);
  const bright = new Float64Array(bw * bh);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      const h = new Uint32Array(256);
      let n = 0;
      for (let y = by * block; y < Math.min(src.height, (by + 1) * block); y++) {
        for (let x = bx * block; x < Math.min(src.width, (bx + 1) * block); x++) {
          h[src.data[y * src.width + x]!]!++;
          n++;
        }
      }
      // The 90th percentile rather than the maximum: one speck of glare is not the paper.
      let seen = 0;
      let level = 255;
      for (; level > 0; level--) {
        seen += h[level]!;
        if (seen >= n * 0.1) break;
      }
      bright[by * bw + bx] = Math.max(level, 40);
    }
  }
  // A block of solid ink (a logo, a heading) takes the brighter of its neighbours.
  const smooth = new Float64Array(bright.length);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      let m = bright[by * bw + bx]!;
      for (const [dx, dy] of [
        [-1, 0],
        [1, 0],
        [0, -1],
        [0, 1],
      ] as const) {
        const x = bx + dx;
        const y = by + dy;
        if (x >= 0 && y >= 0 && x < bw && y < bh) m = Math.max(m, bright[y * bw + x]! * 0.97);
      }
      smooth[by * bw + bx] = m;
    }
  }
  const out = image(src.width, src.height);
  for (let y = 0; y < src.height; y++) {
    const fy = Math.min(bh - 1, Math.max(0, (y + 0.5) / block - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(bh - 1, y0 + 1);
    const wy = fy - y0;
    for (let x = 0; x < src.width; x++) {
      const fx = Math.min(bw - 1, Math.max(0, (x + 0.5) / block - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(bw - 1, x0 + 1);
      const wx = fx - x0;
      const bg =
        (smooth[y0 * bw + x0]! * (1 - wx) + smooth[y0 * bw + x1]! * wx) * (1 - wy) +
        (smooth[y1 * bw + x0]! * (1 - wx) + smooth[y1 * bw + x1]! * wx) * wy;
      out.data[y * src.width + x] = Math.min(
        255,
        Math.round((src.data[y * src.width + x]! * 255) / bg),
      );
    }
  }
  return out;
}

/**
 * Whatever dark reaches the edge of the crop (the table beside the paper, the wedges a straightened
 * photo leaves, a shadow) turned white: the OCR engine reads a black band as a column of text and
 * loses the real ones, and the contrast stretch would take it for the ink.
 */
export function clearBorder(src: GreyImage): GreyImage {
  const paper = percentile(src.data, 0.5);
  const ink = percentile(src.data, 0.02);
  // Through what is clearly dark (the table, the wedges) from the edge inwards; then ten
  // pixels further through anything a little darker than the paper (the grey line of the
  // paper's own edge), no further, so that the fill never runs along a shading into the text.
  const dark = (paper + ink) / 2;
  const grey = paper - 0.2 * (paper - ink);
  const { width, height } = src;
  const out: GreyImage = { width, height, data: src.data.slice() };
  const queue = new Int32Array(width * height);
  let tail = 0;
  const take = (i: number, below: number) => {
    if (out.data[i]! < below) {
      out.data[i] = 255;
      queue[tail++] = i;
    }
  };
  const neighbours = (i: number, below: number) => {
    const x = i % width;
    if (x > 0) take(i - 1, below);
    if (x < width - 1) take(i + 1, below);
    if (i >= width) take(i - width, below);
    if (i < width * (height - 1)) take(i + width, below);
  };
  for (let x = 0; x < width; x++) {
    take(x, dark);
    take((height - 1) * width + x, dark);
  }
  for (let y = 0; y < height; y++) {
    take(y * width, dark);
    take(y * width + width - 1, dark);
  }
  // Each pixel enters the queue at most once: it is whitened as it enters.
  let head = 0;
  while (head < tail) neighbours(queue[head++]!, dark);
  const EDGE_STEPS = 10;
  let from = 0;
  for (let step = 0; step < EDGE_STEPS; step++) {
    const to = tail;
    for (let k = from; k < to; k++) neighbours(queue[k]!, grey);
    from = to;
  }
  return out;
}

/**
 * A 3 x 3 average: the grain of a photo's sensor, once the contrast is stretched, would otherwise
 * read as specks of ink; text as tall as the preparation makes it keeps its shape.
 */
export function smooth(src: GreyImage): GreyImage {
  const { width, height, data } = src;
  const rows = new Uint16Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      rows[i] = data[i]! + data[x > 0 ? i - 1 : i]! + data[x < width - 1 ? i + 1 : i]!;
    }
  }
  const out = image(width, height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const sum = rows[i]! + rows[y > 0 ? i - width : i]! + rows[y < height - 1 ? i + width : i]!;
      out.data[i] = Math.round(sum / 9);
    }
  }
  return out;
}

/** The paper's grain: the mean difference between neighbouring pixels that are both paper. */
export function grain(src: GreyImage): number {
  const paper = percentile(src.data, 0.5);
  const floor = paper - 40;
  let sum = 0;
  let n = 0;
  for (let i = 1; i < src.data.length; i += 3) {
    const a = src.data[i]!;
    const b = src.data[i - 1]!;
    if (a > floor && b > floor) {
      sum += Math.abs(a - b);
      n++;
    }
  }
  return n === 0 ? 0 : sum / n;
}

/** Contrast stretched so that the darkest ink is black and the paper white. */
export function stretch(src: GreyImage): GreyImage {
  const h = histogramOf(src.data);
  const n = src.data.length;
  let low = 0;
  for (let seen = 0; low < 255; low++) {
    seen += h[low]!;
    if (seen > n * 0.005) break;
  }
  const high = Math.max(low + 1, 250);
  const out = image(src.width, src.height);
  const scale = 255 / (high - low);
  for (let i = 0; i < n; i++) {
    out.data[i] = Math.max(0, Math.min(255, Math.round((src.data[i]! - low) * scale)));
  }
  return out;
}

/**
 * The text's slant in degrees: the angle at which the rows of ink, projected sideways, give the
 * sharpest profile (the most contrast between lines and the gaps between them).
 */
export function skewAngle(src: GreyImage): number {
  const sample = shrink(src, Math.max(1, Math.round(src.width / 500)));
  // Halfway between the paper (the median) and the ink (the darkest 2 %): Otsu's split of a page
  // that is nearly all paper falls inside the paper's own noise.
  const t = (percentile(sample.data, 0.5) + percentile(sample.data, 0.02)) / 2;
  const xs: number[] = [];
  const ys: number[] = [];
  // The middle of the crop only: the table around the paper, along the crop's straight edges,
  // would pull the answer to 0 degrees.
  const mx = Math.round(sample.width * 0.1);
  const my = Math.round(sample.height * 0.05);
  for (let y = my; y < sample.height - my; y++) {
    for (let x = mx; x < sample.width - mx; x++) {
      if (sample.data[y * sample.width + x]! < t) {
        xs.push(x);
        ys.push(y);
      }
    }
  }
  if (xs.length < 50 || xs.length > 0.5 * sample.data.length) return 0;
  const span = sample.height + sample.width;
  const bins = new Float64Array(span * 2);
  const score = (degrees: number) => {
    const slope = Math.tan((degrees * Math.PI) / 180);
    bins.fill(0);
    for (let i = 0; i < xs.length; i++) {
      bins[Math.round(ys[i]! - xs[i]! * slope + span)!]! += 1;
    }
    let s = 0;
    for (let i = 0; i < bins.length; i++) s += bins[i]! * bins[i]!;
    return s;
  };
  let best = 0;
  let bestScore = score(0);
  for (let a = -MAX_SKEW_DEGREES; a <= MAX_SKEW_DEGREES; a += 0.5) {
    const s = score(a);
    if (s > bestScore) {
      bestScore = s;
      best = a;
    }
  }
  const coarse = best;
  for (let a = coarse - 0.4; a <= coarse + 0.41; a += 0.1) {
    const s = score(a);
    if (s > bestScore) {
      bestScore = s;
      best = a;
    }
  }
  return Math.round(best * 10) / 10;
}

/**
 * Rotated by `degrees` about its centre, white coming in at the corners; `rotate(img,
 * -skewAngle(img))` straightens it.
 */
export function rotate(src: GreyImage, degrees: number): GreyImage {
  if (degrees === 0) return src;
  const a = (degrees * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const out = image(src.width, src.height);
  const cx = src.width / 2;
  const cy = src.height / 2;
  for (let y = 0; y < src.height; y++) {
    for (let x = 0; x < src.width; x++) {
      const dx = x - cx;
      const dy = y - cy;
      const sx = cos * dx + sin * dy + cx;
      const sy = -sin * dx + cos * dy + cy;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 >= src.width - 1 || y0 >= src.height - 1) continue;
      const wx = sx - x0;
      const wy = sy - y0;
      const i = y0 * src.width + x0;
      const top = src.data[i]! * (1 - wx) + src.data[i + 1]! * wx;
      const bottom = src.data[i + src.width]! * (1 - wx) + src.data[i + src.width + 1]! * wx;
      out.data[y * src.width + x] = Math.round(top * (1 - wy) + bottom * wy);
    }
  }
  return out;
}

export interface Prepared {
  image: GreyImage;
  /** The slant corrected, in degrees. */
  skew: number;
  paper: Rect;
}

/** The whole preparation, from a decoded photo to what the OCR engine reads. */
export function prepare(decoded: GreyImage): Prepared {
  let img = shrink(decoded, Math.ceil(Math.max(decoded.width, decoded.height) / WORKING_SIDE));
  const paper = findPaper(img);
  img = crop(img, paper);
  const skew = skewAngle(img);
  img = rotate(img, -skew);
  let scale = 1;
  if (img.width < PAPER_MIN_WIDTH) scale = Math.min(3, PAPER_MIN_WIDTH / img.width);
  else if (img.width > PAPER_MAX_WIDTH) scale = PAPER_MAX_WIDTH / img.width;
  if (img.width * img.height * scale * scale > MAX_OUTPUT_PIXELS) {
    scale = Math.sqrt(MAX_OUTPUT_PIXELS / (img.width * img.height));
  }
  if (Math.abs(scale - 1) > 0.05) {
    img = resize(img, Math.round(img.width * scale), Math.round(img.height * scale));
  }
  img = clearBorder(flatten(img));
  // A clean scan keeps its sharp edges; a grainy photo is smoothed before its contrast is raised.
  if (grain(img) > 0.8) {
    img = smooth(img);
    // Faded print (little between ink and paper) is raised the most, its grain with it.
    if (percentile(img.data, 0.5) - percentile(img.data, 0.02) < 120) img = smooth(img);
  }
  img = stretch(img);
  return { image: img, skew, paper };
}

/** As a binary PGM file (P5), which the OCR engine's image reader takes without compression. */
export function toPgm(img: GreyImage): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${img.width} ${img.height}\n255\n`);
  const out = new Uint8Array(header.length + img.data.length);
  out.set(header);
  out.set(img.data, header.length);
  return out;
}
