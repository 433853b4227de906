import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launchChromium, serveApi, startServe, type ServeProcess } from '../helpers/browser.js';
import { packBundle, signBundle } from '../helpers/mcpbBundles.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/**
 * Opening a .mcpb with ChatOS (issue 46): the desktop hands the host the path
 * the system names (argv, open-file); `chatos serve --open FILE` is the same
 * hand-over in the headless face. The window, once there, shows the install
 * preview a dropped file gets, and installs it with its key.
 */

let serve: ServeProcess | undefined;
let chromium: Awaited<ReturnType<typeof launchChromium>> | undefined;

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
});

describe('a bundle opened with ChatOS', () => {
  it('is shown in the Apps install dialog as a dropped file is, and installs from there', async () => {
    const bundle = await packBundle();
    signBundle(bundle, 'Opened Publisher');
    const home = tempDir('chatos-ui-open-home-');
    // Relative to the folder serve starts in, as a launch's argument is.
    serve = await startServe(['--home', home, '--open', path.relative(repoRoot, bundle)], { LANG: 'en_US.UTF-8' });
    chromium = await launchChromium();
    const page = await chromium.context.newPage();
    await page.goto(serve.url);

    await page.getByTestId('bundle-preview').waitFor();
    expect(page.url()).toContain('#/apps');
    expect(await page.getByTestId('bundle-name').textContent()).toBe('Weather 1.0.0');
    expect(await page.getByTestId('bundle-signature').textContent()).toMatch(/^Self-signed by Opened Publisher/);
    const dir = path.join(home, 'chatos', 'ui_apps', 'plugins', 'mcpb.weather');
    expect(await page.getByTestId('bundle-command').textContent()).toBe(`node ${path.join(dir, 'server', 'index.mjs')} \${user_config.units}`);
    await page.getByTestId('bundle-config-api_key').fill('sk-opened-1');
    await page.getByTestId('install-ok').click();
    await page.getByTestId('plugin-mcpb.weather').waitFor();

    const listed = await serveApi(serve)<{ plugins: { id?: string; trust: { state: string } }[] }>('apps.list');
    expect(listed.plugins.find((p) => p.id === 'mcpb.weather')?.trust.state).toBe('untrusted');
    expect(fs.readFileSync(path.join(dir, 'plugin.json'), 'utf8')).not.toContain('sk-opened-1');
    // A browser has no folder picker: the desktop's alone (the path is typed here).
    await expect(serveApi(serve)('plugins.pickFolder')).rejects.toThrow('this window has no folder picker: it runs in a browser');
    // Taken once: a window opened later is not offered it again.
    expect(await serveApi(serve)('plugins.takeOpenedBundle', { uploadId: 'bundle-again0000' })).toEqual({ opened: null });
  });
});
