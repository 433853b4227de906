import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleArgOf, readBundleToOpen } from '../../../src/core/plugins/bundles/bundleToOpen.js';
import { packBundle } from '../../helpers/mcpbBundles.js';
import { tempDir } from '../../helpers/tempDir.js';

/**
 * A bundle the desktop is asked to open (issue 46): the path a launch or a
 * second start names, then the file read as what it is. Only a regular .mcpb
 * is taken; a link, a FIFO (which would block a plain read forever), a
 * folder or another kind of file is refused with the reason.
 */

describe('the path a launch names', () => {
  it('is the last argument after the program that is not a switch', () => {
    // Packaged: [exe, file]; from a checkout: [electron, '.', file]; a second start on Windows carries Chromium's switches.
    expect(bundleArgOf(['/opt/ChatOS/chatos', '/home/a/weather.mcpb'], 1)).toBe('/home/a/weather.mcpb');
    expect(bundleArgOf(['electron', '.', 'weather.mcpb'], 2)).toBe('weather.mcpb');
    expect(bundleArgOf(['C:\\ChatOS\\ChatOS.exe', '--allow-file-access-from-files', 'C:\\Users\\a\\w.mcpb', '--original-process-start-time=1'], 1)).toBe('C:\\Users\\a\\w.mcpb');
    expect(bundleArgOf(['/opt/ChatOS/chatos'], 1)).toBeUndefined();
    expect(bundleArgOf(['electron', '.', '--inspect'], 2)).toBeUndefined();
  });
});

describe('reading the bundle to open', () => {
  it('reads a regular .mcpb, relative to the launch folder', async () => {
    const bundle = await packBundle();
    const read = readBundleToOpen(path.basename(bundle), path.dirname(bundle));
    expect(read).toMatchObject({ ok: true, file: bundle, name: 'weather.mcpb' });
    expect(read.ok && read.bytes.equals(fs.readFileSync(bundle))).toBe(true);
  });

  it('refuses what is not a regular .mcpb file, with the reason', async () => {
    const bundle = await packBundle();
    const dir = tempDir('chatos-open-');
    const zip = path.join(dir, 'plugin.zip');
    fs.copyFileSync(bundle, zip);
    expect(readBundleToOpen(zip, dir)).toMatchObject({ ok: false, message: `${zip} is not an MCP bundle: ChatOS opens .mcpb files only` });

    // A link may point anywhere (a device, a file of another user): the file opened is the one named, never its target.
    const link = path.join(dir, 'link.mcpb');
    fs.symlinkSync(bundle, link);
    expect(readBundleToOpen(link, dir)).toMatchObject({ ok: false, message: `${link} is a link, not a regular file` });

    // A FIFO would block a plain read until someone writes to it: refused at once.
    const fifo = path.join(dir, 'pipe.mcpb');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expect(readBundleToOpen(fifo, dir)).toMatchObject({ ok: false, message: `${fifo} is a FIFO (named pipe), not a regular file` });

    const folder = path.join(dir, 'folder.mcpb');
    fs.mkdirSync(folder);
    expect(readBundleToOpen(folder, dir)).toMatchObject({ ok: false, message: `${folder} is a folder, not a regular file` });

    expect(readBundleToOpen(bundle, dir, 100)).toMatchObject({ ok: false, message: `${bundle} holds more than 100 bytes` });
    expect(readBundleToOpen(path.join(dir, 'none.mcpb'), dir)).toMatchObject({ ok: false, message: `${path.join(dir, 'none.mcpb')} does not exist` });
  });
});
