import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRoute, openServedUi } from '../helpers/browser.js';
import { packBundle, weatherManifest } from '../helpers/mcpbBundles.js';
import { makeZip } from '../helpers/plugins.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * Plugins installed from the Apps page by file (issue 46, item 3): a
 * plugin's .zip dropped on the install dialog, and an MCP Bundle by the
 * address the user pastes, fetched by the host from a real HTTP server.
 * Each is shown before it is installed, as `chatos install` shows it.
 */
let ui: Awaited<ReturnType<typeof openServedUi>>;
let page: Page;
let home: string;

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-pluginfiles-home-'));
  ui = await openServedUi(['--home', home]);
  ({ page } = ui);
  // The window opens on Chat; installing is the Apps page's.
  await openRoute(page, '#/apps', 'page-apps');
});

afterAll(async () => {
  expect(await ui?.close()).toBe(0);
  fs.rmSync(home, { recursive: true, force: true });
});

/** Drops `file` on the install dialog's drop zone, as a file dragged from the desktop arrives. */
async function drop(file: string): Promise<void> {
  const bytes = fs.readFileSync(file).toString('base64');
  // The dialog's drop zone, once the dialog has rendered it (antd puts the test id on its hidden file input).
  await page.getByTestId('install-bundle-drop').waitFor({ state: 'attached' });
  await page.evaluate(
    ([base64, name]) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([Uint8Array.from(atob(base64!), (c) => c.charCodeAt(0))], name!));
      const zone = document.querySelector('[data-testid="install-bundle-drop"]')!.closest('.ant-upload')!;
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    },
    [bytes, path.basename(file)],
  );
}

describe('installing a plugin by file from the Apps page', () => {
  it('installs a dropped plugin .zip', async () => {
    const zip = path.join(tempDir('chatos-zip-'), 'zipped.zip');
    const manifest = { manifestVersion: 1, id: 'com.example.zipped', name: 'Zipped', version: '1.0.0', apps: [{ id: 'main', name: 'Main', entry: 'index.mjs' }] };
    makeZip(zip, [
      { name: 'zipped/plugin.json', text: JSON.stringify(manifest) },
      { name: 'zipped/index.mjs', text: 'export function mount() {}\n' },
    ]);
    await page.getByTestId('install').click();
    await drop(zip);
    await page.getByTestId('install-zip').waitFor();
    await page.getByTestId('install-ok').click();
    await page.getByTestId('plugin-com.example.zipped').waitFor();
    expect(fs.existsSync(path.join(home, 'chatos', 'ui_apps', 'plugins', 'com.example.zipped', 'index.mjs'))).toBe(true);
  });

  it('installs an MCP Bundle from an address pasted in the dialog, shown before it is installed', async () => {
    const bundle = await packBundle(weatherManifest({ name: 'pasted', display_name: 'Pasted' }), 'pasted');
    const server = http.createServer((req, res) => {
      if (req.url !== '/releases/pasted.mcpb') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(fs.readFileSync(bundle));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/releases/pasted.mcpb`;
      await page.getByTestId('install').click();
      await page.getByTestId('install-source').fill(url);
      await page.getByTestId('install-ok').click();
      await page.getByTestId('bundle-preview').waitFor();
      expect(await page.getByTestId('bundle-name').textContent()).toBe('Pasted 1.0.0');
      expect(await page.getByTestId('bundle-author').textContent()).toBe('Test Author');
      await page.getByTestId('bundle-config-api_key').fill('sk-pasted-1');
      await page.getByTestId('install-ok').click();
      await page.getByTestId('bundle-preview').waitFor({ state: 'detached' });
      await page.getByTestId('plugin-mcpb.pasted').waitFor();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('says so when the pasted address cannot be reached, installing nothing', async () => {
    await page.getByTestId('install').click();
    await page.getByTestId('install-source').fill('https://127.0.0.1:1/nothing.mcpb');
    await page.getByTestId('install-ok').click();
    await page.getByTestId('install-error').waitFor();
    expect(await page.getByTestId('install-error').textContent()).toContain('could not be reached');
    expect(await page.getByTestId('bundle-preview').count()).toBe(0);
    await page.locator('.ant-modal-close').click();
  });
});
