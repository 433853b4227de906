import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sameStamp } from '../../../src/core/files/fileStamps.js';
import { readDbFile, removeOrphanTemps, statStamp, writeFileAtomic } from '../../../src/core/store/dbFile.js';
import { tempDir } from '../../helpers/tempDir.js';
import { listDir } from './storeTestKit.js';

describe('dbFile', () => {
  it('writeFileAtomic replaces the file through a temp file it does not leave behind', () => {
    const dir = tempDir();
    const file = path.join(dir, 'admin.db');
    fs.writeFileSync(file, 'old');
    const before = statStamp(file);
    expect(writeFileAtomic(file, Buffer.from('new content'))).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toBe('new content');
    expect(listDir(dir)).toEqual(['admin.db']);
    expect(sameStamp(statStamp(file), before)).toBe(false);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a failed write leaves the old file and no temp file', () => {
    const dir = tempDir();
    const file = path.join(dir, 'admin.db');
    fs.writeFileSync(file, 'old');
    fs.mkdirSync(path.join(dir, 'admin.db.d'));
    // Renaming a file over a folder fails after the temp file was written.
    expect(() => writeFileAtomic(path.join(dir, 'admin.db.d'), Buffer.from('x'))).toThrow();
    expect(listDir(dir)).toEqual(['admin.db', 'admin.db.d']);
    expect(fs.readFileSync(file, 'utf8')).toBe('old');
  });

  it('readDbFile stamps exactly the bytes it read, and is undefined for a missing file', () => {
    const dir = tempDir();
    const file = path.join(dir, 'admin.db');
    expect(readDbFile(file)).toBeUndefined();
    expect(statStamp(file)).toBeUndefined();
    writeFileAtomic(file, Buffer.from('abc'));
    const content = readDbFile(file)!;
    expect(Buffer.from(content.bytes).toString()).toBe('abc');
    expect(sameStamp(content.stamp, statStamp(file))).toBe(true);
    writeFileAtomic(file, Buffer.from('abc'));
    const again = readDbFile(file)!;
    expect(again.hash).toBe(content.hash); // same bytes, same hash…
    expect(sameStamp(again.stamp, content.stamp)).toBe(false); // …but a new file
  });

  it('removeOrphanTemps removes the DB temp files, old backup temp files, and nothing else', () => {
    const dir = tempDir();
    const file = path.join(dir, 'admin.db');
    const names = ['admin.db', 'admin.db.bak-1', 'admin.db.tmp-1-aa', 'admin.db.bak-1.tmp-2-bb', 'admin.db.bak-2.tmp-3-cc', 'admin.dbx.tmp-4-dd', 'other.db.tmp-5-ee'];
    for (const name of names) fs.writeFileSync(path.join(dir, name), '');
    const old = new Date(Date.now() - 5 * 60_000);
    fs.utimesSync(path.join(dir, 'admin.db.bak-2.tmp-3-cc'), old, old);
    removeOrphanTemps(file);
    expect(listDir(dir)).toEqual(['admin.db', 'admin.db.bak-1', 'admin.db.bak-1.tmp-2-bb', 'admin.dbx.tmp-4-dd', 'other.db.tmp-5-ee']);
  });
});
