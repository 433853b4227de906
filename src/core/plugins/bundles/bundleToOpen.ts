import * as path from 'node:path';
import { readRegularFile } from '../../files/readRegularFile.js';
import { MAX_ZIP_BYTES } from '../zipExtract.js';

/**
 * A bundle the desktop is asked to open (docs/using/bundles.md#opening-a-bundle-file):
 * double-clicked in a file manager, or "Open with ChatOS". macOS names it in an
 * `open-file` event; Windows and Linux start ChatOS with its path on the
 * command line (a second start hands its argv to the one running). The path
 * comes from outside like any input: only a `.mcpb` is taken, and it is read
 * as the file it is, never through a link (whose target may be anything) and
 * never waiting on a FIFO or a device. Nothing is unpacked or installed here:
 * the window shows the same preview as a dropped file, and the person decides.
 */

export type BundleToOpen = { ok: true; file: string; name: string; bytes: Buffer } | { ok: false; file: string; message: string; hint?: string };

/**
 * The path a launch names: the last argument after the program (and, run from a checkout, the app folder:
 * `skip` of them) that is not a switch. Chromium adds switches of its own to a second start's argv.
 */
export function bundleArgOf(argv: readonly string[], skip: number): string | undefined {
  return argv
    .slice(skip)
    .filter((arg) => arg !== '' && !arg.startsWith('-'))
    .at(-1);
}

/**
 * Reads the bundle at `file` (relative to `cwd`, the launch's working folder), refused with the reason unless it is a
 * regular `.mcpb` file of at most `maxBytes`.
 */
export function readBundleToOpen(file: string, cwd: string, maxBytes = MAX_ZIP_BYTES): BundleToOpen {
  const resolved = path.resolve(cwd, file);
  if (!/\.mcpb$/i.test(resolved)) return { ok: false, file: resolved, message: `${resolved} is not an MCP bundle: ChatOS opens .mcpb files only`, hint: 'install other plugins from Apps → Install' };
  const read = readRegularFile(resolved, { maxBytes, noFollow: true });
  if (!read.ok) return { ok: false, file: resolved, message: read.message, hint: read.hint };
  return { ok: true, file: resolved, name: path.basename(resolved), bytes: read.bytes };
}
