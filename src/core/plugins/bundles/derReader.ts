/**
 * Just enough DER to walk a PKCS#7 signature: each element keeps its own
 * bytes, so what was signed is checked byte for byte, never re-encoded.
 */

export interface DerElement {
  tag: number;
  /** The whole element, header included. */
  bytes: Buffer;
  /** The content after the header. */
  content: Buffer;
}

export class DerError extends Error {}

/** One element at `offset` of `buffer`. */
function readElement(buffer: Buffer, offset: number): DerElement {
  if (offset + 2 > buffer.length) throw new DerError('truncated DER element');
  const tag = buffer[offset]!;
  let length = buffer[offset + 1]!;
  let header = 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    // Four length bytes reach 4 GiB: more than any signature block may hold.
    if (count === 0 || count > 4 || offset + 2 + count > buffer.length) throw new DerError('bad DER length');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + buffer[offset + 2 + i]!;
    header += count;
  }
  const end = offset + header + length;
  if (end > buffer.length) throw new DerError('DER element runs past its container');
  return { tag, bytes: buffer.subarray(offset, end), content: buffer.subarray(offset + header, end) };
}

/** The element filling `buffer`. */
export function readDer(buffer: Buffer): DerElement {
  const element = readElement(buffer, 0);
  if (element.bytes.length !== buffer.length) throw new DerError('bytes after the DER element');
  return element;
}

/** The elements inside a constructed element. */
export function childrenOf(element: DerElement): DerElement[] {
  const children: DerElement[] = [];
  for (let offset = 0; offset < element.content.length;) {
    const child = readElement(element.content, offset);
    children.push(child);
    offset += child.bytes.length;
  }
  return children;
}

/** The `index`th child, which must carry `tag`. */
export function childAt(element: DerElement, index: number, tag: number, what: string): DerElement {
  const child = childrenOf(element)[index];
  if (!child || child.tag !== tag) throw new DerError(`${what} is missing`);
  return child;
}
