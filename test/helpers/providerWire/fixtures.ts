import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../tempDir.js';

/**
 * Recorded provider responses (test/fixtures/providerStreams/*.http): what a
 * real service sent back, as an HTTP response — status line, headers, a
 * blank line, the body exactly as on the wire. Lines starting with `#` at
 * the top say where the recording comes from; they are not sent.
 */

export const FIXTURES_DIR = path.join(repoRoot, 'test', 'fixtures', 'providerStreams');

export interface RecordedResponse {
  name: string;
  status: number;
  headers: Record<string, string>;
  /** The body's bytes, as the provider sent them. */
  body: Buffer;
  /** The `#` lines: the public recording or documented behaviour it follows. */
  source: string[];
}

export function readFixture(name: string): RecordedResponse {
  const bytes = fs.readFileSync(path.join(FIXTURES_DIR, `${name}.http`));
  const source: string[] = [];
  let at = 0;
  const line = () => {
    const end = bytes.indexOf(0x0a, at);
    if (end === -1) throw new Error(`${name}.http: the response head ends without a blank line`);
    const text = bytes.subarray(at, end).toString('utf8').replace(/\r$/, '');
    at = end + 1;
    return text;
  };
  let first = line();
  while (first.startsWith('#')) {
    source.push(first.replace(/^#\s?/, ''));
    first = line();
  }
  const status = /^HTTP\/1\.1 (\d{3})\b/.exec(first);
  if (!status) throw new Error(`${name}.http: expected a status line "HTTP/1.1 200 OK" after the # lines, found ${JSON.stringify(first)}`);
  const headers: Record<string, string> = {};
  for (let header = line(); header !== ''; header = line()) {
    const colon = header.indexOf(':');
    headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
  }
  return { name, status: Number(status[1]), headers, body: bytes.subarray(at), source };
}

/** The body cut where server-sent events end (after each blank line), so a replay sends them one at a time; the pieces joined are the body. */
export function eventPieces(body: Buffer): Buffer[] {
  const pieces: Buffer[] = [];
  let start = 0;
  for (let i = body.indexOf('\n\n'); i !== -1; i = body.indexOf('\n\n', start)) {
    pieces.push(body.subarray(start, i + 2));
    start = i + 2;
  }
  if (start < body.length) pieces.push(body.subarray(start));
  return pieces;
}
