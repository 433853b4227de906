import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRegularFile, readRegularText, streamRegularFile } from '../../../src/core/files/readRegularFile.js';
import { tempDir } from '../../helpers/tempDir.js';

/** Node has no mkfifo: the system's. */
const mkfifo = (file: string) => execFileSync('mkfifo', [file]);

describe('readRegularFile', () => {
  it('reads a regular file up to its cap, exactly at the cap included', () => {
    const file = path.join(tempDir(), 'a.txt');
    fs.writeFileSync(file, 'hello');
    expect(readRegularText(file, { maxBytes: 5 })).toEqual({ ok: true, text: 'hello' });
    expect(readRegularText(file, { maxBytes: 4 })).toMatchObject({ ok: false, code: 'FILE_TOO_LARGE', size: 5 });
    fs.writeFileSync(file, '');
    expect(readRegularText(file, { maxBytes: 0 })).toEqual({ ok: true, text: '' });
  });

  it('returns at once for a FIFO, a folder, a socket and a device, each named in the message, and never waits on them', async () => {
    const dir = tempDir();
    const fifo = path.join(dir, 'plugin.json');
    mkfifo(fifo);
    expect(readRegularFile(fifo, { maxBytes: 1024 })).toMatchObject({
      ok: false,
      code: 'FILE_NOT_REGULAR',
      message: `${fifo} is a FIFO (named pipe), not a regular file`,
      hint: 'replace it with a regular file',
    });
    expect(readRegularFile(dir, { maxBytes: 1024 })).toMatchObject({ ok: false, code: 'FILE_NOT_REGULAR', kind: 'a folder' });
    expect(readRegularFile('/dev/zero', { maxBytes: 1024 })).toMatchObject({ ok: false, code: 'FILE_NOT_REGULAR', kind: 'a device' });
    const socketFile = path.join(dir, 'sock');
    const server = net.createServer().listen(socketFile);
    await new Promise((resolve) => server.once('listening', resolve));
    expect(readRegularFile(socketFile, { maxBytes: 1024 })).toMatchObject({ ok: false, code: 'FILE_NOT_REGULAR', kind: 'a socket' });
    server.close();
    expect(streamRegularFile(fifo)).toMatchObject({ ok: false, code: 'FILE_NOT_REGULAR' });
  });

  it('follows a link unless told not to, and says what is missing', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'real.txt'), 'real');
    fs.symlinkSync(path.join(dir, 'real.txt'), path.join(dir, 'link.txt'));
    expect(readRegularText(path.join(dir, 'link.txt'), { maxBytes: 10 })).toEqual({ ok: true, text: 'real' });
    expect(readRegularText(path.join(dir, 'link.txt'), { maxBytes: 10, noFollow: true })).toMatchObject({ ok: false, code: 'FILE_NOT_REGULAR', kind: 'a link' });
    expect(readRegularText(path.join(dir, 'nope.txt'), { maxBytes: 10 })).toMatchObject({ ok: false, code: 'FILE_NOT_FOUND' });
  });

  it('streams exactly the bytes the file held at open', async () => {
    const file = path.join(tempDir(), 'page.mjs');
    fs.writeFileSync(file, 'export {}\n');
    const opened = streamRegularFile(file, { noFollow: true });
    if (!opened.ok || !opened.stream) throw new Error('expected a stream');
    fs.appendFileSync(file, '// grown after the open\n');
    const chunks: Buffer[] = [];
    for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('export {}\n');
    expect(opened.size).toBe(10);
  });
});
