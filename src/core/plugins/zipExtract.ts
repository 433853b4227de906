import * as fs from 'node:fs';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';

export const MAX_ZIP_ENTRIES = 10_000;
export const MAX_ZIP_BYTES = 200 * 1024 * 1024;

export class ZipRefused extends Error {}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

function checkName(name: string): void {
  if (name.includes('\\')) throw new ZipRefused(`zip entry "${name}" uses a backslash; plugin zips use "/"`);
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) throw new ZipRefused(`zip entry "${name}" is an absolute path`);
  if (name.split('/').includes('..')) throw new ZipRefused(`zip entry "${name}" escapes the plugin folder with ".."`);
}

/**
 * Extracts a plugin zip into `target` (which must not exist). Refuses the
 * whole archive, before writing anything, if any entry is a link, escapes
 * the folder, or the archive is larger than the limits (a zip bomb).
 * Entries `leaveOut` names are checked like the rest but not written; their
 * names are returned.
 */
export async function extractPluginZip(zipFile: string, target: string, leaveOut: (name: string) => boolean = () => false): Promise<{ leftOut: string[] }> {
  const leftOut: string[] = [];
  const zip = await yauzl.openPromise(zipFile, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false, decodeStrings: true });
  const entries: yauzl.Entry[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      let total = 0;
      zip.on('entry', (entry: yauzl.Entry) => {
        try {
          checkName(entry.fileName);
          if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) throw new ZipRefused(`zip entry "${entry.fileName}" is a symbolic link; plugin zips may not hold links`);
          if (entries.length >= MAX_ZIP_ENTRIES) throw new ZipRefused(`zip holds more than ${MAX_ZIP_ENTRIES} entries`);
          total += entry.uncompressedSize;
          if (total > MAX_ZIP_BYTES) throw new ZipRefused(`zip unpacks to more than ${MAX_ZIP_BYTES / 1024 / 1024} MiB`);
          entries.push(entry);
          zip.readEntry();
        } catch (error) {
          reject(error);
        }
      });
      zip.on('end', () => resolve());
      // yauzl checks names itself before we see the entry; say it in our words.
      zip.on('error', (error: Error) =>
        reject(/invalid relative path|absolute path/.test(error.message) ? new ZipRefused(`${error.message.replace(/^.*?: /, 'zip entry "')}" escapes the plugin folder`) : error),
      );
      zip.readEntry();
    });
    fs.mkdirSync(target, { recursive: false });
    for (const entry of entries) {
      if (leaveOut(entry.fileName)) {
        leftOut.push(entry.fileName);
        continue;
      }
      const out = path.join(target, entry.fileName);
      if (entry.fileName.endsWith('/')) {
        fs.mkdirSync(out, { recursive: true });
        continue;
      }
      fs.mkdirSync(path.dirname(out), { recursive: true });
      const stream = await zip.openReadStreamPromise(entry);
      await pipeline(stream, fs.createWriteStream(out, { flags: 'wx' }));
    }
  } finally {
    zip.close();
  }
  return { leftOut };
}
