#!/usr/bin/env node
// Draws build/icon.png, the desktop app's icon (electron-builder makes each
// platform's sizes and formats from it: .ico, .icns, the Linux set): a blue
// rounded square with a white speech bubble holding three dots. Drawn from
// geometry, 4×4 samples a pixel, so the committed file can be made again:
//   node scripts/makeIcon.mjs
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as zlib from 'node:zlib';

const SIZE = 1024;
const out = path.join(fileURLToPath(new URL('..', import.meta.url)), 'build', 'icon.png');

function roundedRect(x, y, left, top, right, bottom, radius) {
  const cx = Math.min(Math.max(x, left + radius), right - radius);
  const cy = Math.min(Math.max(y, top + radius), bottom - radius);
  return x >= left && x <= right && y >= top && y <= bottom && (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}
const inTriangle = (x, y, [ax, ay], [bx, by], [cx, cy]) => {
  const d1 = (x - bx) * (ay - by) - (ax - bx) * (y - by);
  const d2 = (x - cx) * (by - cy) - (bx - cx) * (y - cy);
  const d3 = (x - ax) * (cy - ay) - (cx - ax) * (y - ay);
  return !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
};

/** The colour at a point (unit square), or undefined outside the icon. */
function colour(u, v) {
  if (!roundedRect(u, v, 0.06, 0.06, 0.94, 0.94, 0.2)) return undefined;
  const dot = [0.34, 0.5, 0.66].some((cx) => (u - cx) ** 2 + (v - 0.45) ** 2 <= 0.055 ** 2);
  const bubble = roundedRect(u, v, 0.2, 0.24, 0.8, 0.66, 0.12) || inTriangle(u, v, [0.3, 0.6], [0.44, 0.6], [0.27, 0.8]);
  if (bubble && !dot) return [255, 255, 255];
  // A gradient from top left to bottom right.
  const t = (u + v) / 2;
  return [Math.round(37 + (22 - 37) * t), Math.round(99 + (78 - 99) * t), Math.round(235 + (216 - 235) * t)];
}

const SAMPLES = 4;
const rows = [];
for (let y = 0; y < SIZE; y++) {
  const row = Buffer.alloc(1 + SIZE * 4);
  for (let x = 0; x < SIZE; x++) {
    let r = 0,
      g = 0,
      b = 0,
      a = 0;
    for (let sy = 0; sy < SAMPLES; sy++) {
      for (let sx = 0; sx < SAMPLES; sx++) {
        const c = colour((x + (sx + 0.5) / SAMPLES) / SIZE, (y + (sy + 0.5) / SAMPLES) / SIZE);
        if (!c) continue;
        r += c[0];
        g += c[1];
        b += c[2];
        a += 1;
      }
    }
    const at = 1 + x * 4;
    if (a) row.set([Math.round(r / a), Math.round(g / a), Math.round(b / a), Math.round((255 * a) / SAMPLES ** 2)], at);
  }
  rows.push(row);
}

/** A PNG chunk: length, type, data, and the CRC of type and data (zlib's own crc32). */
const chunk = (type, data) => {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const framing = Buffer.alloc(8);
  framing.writeUInt32BE(data.length, 0);
  framing.writeUInt32BE(zlib.crc32(body), 4);
  return Buffer.concat([framing.subarray(0, 4), body, framing.subarray(4)]);
};
const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method, no interlace
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(
  out,
  Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]),
);
console.log(`wrote ${out}`);
