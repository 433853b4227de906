import * as fs from 'node:fs';

/**
 * Is a graph file (`ann-*.usearch`) one this host wrote, before usearch maps it? usearch's `view()` trusts the file's
 * structure: a count or a level that runs past the file's end reads out of bounds and can crash the main process. So
 * the file must be a regular file (not a link, a FIFO or a device), and its layout must add up exactly to its size:
 * as written by `Index.save` with our settings (usearch 2.x, cosine, i8, u64 keys, connectivity CONNECTIVITY), it is
 *
 *   rows (u32), row bytes (u32), the vectors; the dense head (64 bytes: "usearch", version, kinds, counts,
 *   dimensions); the graph's head (5 × u64: size, connectivity, base connectivity, max level, entry);
 *   one i16 level per node; each node: key (u64), level (i16), its base neighbours (u32 count + 2 × CONNECTIVITY u32 slots)
 *   and per level above 0 another (u32 count + CONNECTIVITY u32 slots).
 *
 * Every neighbour list is read too (a count within its capacity, each slot a node of the file): a slot past the
 * last node is what makes a search read out of bounds. That reads the graph part of the file once on open (about
 * 280 bytes a row: 28 MB for 100,000 rows), the vectors stay mapped, unread.
 *
 * Returns why it is refused, or undefined. `upto`: the highest key the file's name says it holds, which bounds its
 * node count.
 */

/** Links per node above the base level (twice that at the base): vectorIndex.ts builds with it, this checks it. */
export const CONNECTIVITY = 32;
const BASE_CONNECTIVITY = 2 * CONNECTIVITY;
const DENSE_HEAD_BYTES = 64;
const GRAPH_HEAD_BYTES = 40;
const MAGIC = Buffer.from('usearch');
const KIND = { cosine: 0x63, i8: 23, u64: 14 };
/** Bytes of one dimension of a stored vector (int8: vectorIndex.ts). */
const SCALAR_BYTES = 1;
const MAX_LEVEL = 64;
const nodeBytes = (level: number) => 8 + 2 + (4 + BASE_CONNECTIVITY * 4) + level * (4 + CONNECTIVITY * 4);
/** The node part is read in windows of this size. */
const WINDOW = 1024 * 1024;

export function graphFileProblem(file: string, dimensions: number, upto: number): string | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ELOOP' ? 'it is a link' : (error as Error).message;
  }
  try {
    const size = fs.fstatSync(fd);
    if (!size.isFile()) return 'it is not a regular file';
    return layoutProblem(fd, size.size, dimensions, upto);
  } finally {
    fs.closeSync(fd);
  }
}

function layoutProblem(fd: number, size: number, dimensions: number, upto: number): string | undefined {
  const read = (at: number, length: number): Buffer | undefined => {
    if (at + length > size) return undefined;
    const bytes = Buffer.alloc(length);
    return fs.readSync(fd, bytes, 0, length, at) === length ? bytes : undefined;
  };
  const rows = read(0, 8);
  if (!rows) return 'it is shorter than its header';
  const count = rows.readUInt32LE(0);
  if (rows.readUInt32LE(4) !== dimensions * SCALAR_BYTES) return `its vectors are not of ${dimensions} dimensions`;
  if (count > upto) return `it holds ${count} vectors; the store has at most ${upto}`;
  const headAt = 8 + count * dimensions * SCALAR_BYTES;
  const head = read(headAt, DENSE_HEAD_BYTES + GRAPH_HEAD_BYTES);
  if (!head) return 'it ends before its head';
  if (!head.subarray(0, MAGIC.length).equals(MAGIC) || head.readUInt16LE(7) !== 2) return 'it is not a usearch 2 index';
  if (head[13] !== KIND.cosine || head[14] !== KIND.i8 || head[15] !== KIND.u64) return 'it is not of this host’s kinds (cosine, i8, u64 keys)';
  if (head.readBigUInt64LE(33) !== BigInt(dimensions) || head[41] !== 0) return `it is not of ${dimensions} dimensions, one vector a key`;
  const graph = DENSE_HEAD_BYTES;
  const nodes = head.readBigUInt64LE(graph);
  if (nodes !== BigInt(count)) return 'its graph and its vectors differ in count';
  if (head.readBigUInt64LE(graph + 8) !== BigInt(CONNECTIVITY) || head.readBigUInt64LE(graph + 16) !== BigInt(BASE_CONNECTIVITY)) return 'its connectivity is not this host’s';
  const levelsAt = headAt + DENSE_HEAD_BYTES + GRAPH_HEAD_BYTES;
  const levels = read(levelsAt, count * 2);
  if (!levels) return 'it ends before its levels';
  const nodesAt = levelsAt + count * 2;
  let expected = nodesAt;
  for (let i = 0; i < count; i++) {
    const level = levels.readInt16LE(i * 2);
    if (level < 0 || level > MAX_LEVEL) return `a node has level ${level}`;
    expected += nodeBytes(level);
  }
  if (expected !== size) return `it is ${size} bytes; its layout takes ${expected}`;
  if (count > 0 && head.readBigUInt64LE(graph + 32) >= BigInt(count)) return 'its entry is not one of its nodes';
  return neighboursProblem(fd, nodesAt, levels, count);
}

/** Each node's neighbour lists: a count within the list's capacity, and every slot one of the `count` nodes. */
function neighboursProblem(fd: number, at: number, levels: Buffer, count: number): string | undefined {
  // One buffer for every window: a fresh megabyte per window was 28 MB of garbage at 100,000 rows, which the
  // allocator kept after it was freed (RSS of the process that opened the base).
  const buffer = Buffer.allocUnsafe(Math.max(WINDOW, nodeBytes(MAX_LEVEL)));
  // Read through a DataView: Buffer's readUInt32LE assembles a number byte by byte, and the links are tens of
  // millions of reads at a million rows. Measured on a graph of 305,000 rows: 25 ms of CPU rather than 33 (46 rather
  // than 68 on a process's first check).
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  let length = 0;
  let windowAt = at;
  for (let i = 0; i < count; i++) {
    const level = levels.readInt16LE(i * 2);
    const bytes = nodeBytes(level);
    if (at + bytes > windowAt + length) {
      windowAt = at;
      length = fs.readSync(fd, buffer, 0, buffer.length, at);
      if (length < bytes) return 'it ends inside a node';
    }
    let list = at - windowAt + 10;
    for (let l = 0; l <= level; l++) {
      const capacity = l === 0 ? BASE_CONNECTIVITY : CONNECTIVITY;
      const neighbours = view.getUint32(list, true);
      if (neighbours > capacity) return `a node has ${neighbours} neighbours; at most ${capacity}`;
      for (let k = 0, slot = list + 4; k < neighbours; k++, slot += 4) if (view.getUint32(slot, true) >= count) return 'a node links to no node of the file';
      list += 4 + capacity * 4;
    }
    at += bytes;
  }
  return undefined;
}
