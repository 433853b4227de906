import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRoute, openServedUi } from '../helpers/browser.js';
import { packBundle, signBundle, weatherManifest } from '../helpers/mcpbBundles.js';
import { runCli } from '../helpers/runCli.js';

/**
 * An MCP Bundle installed from the Apps page of `chatos serve` in Chromium
 * (docs/using/bundles.md): dropped or picked, shown (author, signature, the
 * exact command, its tools), installed with its sensitive key, then its tool
 * called through the gateway; an update of another signer, or unsigned over
 * the unsigned copy, is warned about and gets the stored key only when the
 * user ticks it (an unsigned one of another author never); a bundle changed
 * after signing is refused.
 */
let ui: Awaited<ReturnType<typeof openServedUi>>;
let page: Page;
let home: string;

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-mcpb-home-'));
  ui = await openServedUi(['--home', home]);
  ({ page } = ui);
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

describe('an MCP Bundle from the Apps page', () => {
  it('is shown, installed with its key, and its tool answers through the gateway', async () => {
    const bundle = await packBundle();
    await openRoute(page, '#/apps', 'page-apps');
    await page.getByTestId('install').click();
    await drop(bundle);
    await page.getByTestId('bundle-preview').waitFor();
    expect(await page.getByTestId('bundle-author').textContent()).toBe('Test Author');
    expect(await page.getByTestId('bundle-signature').textContent()).toBe('Unsigned');
    const dir = path.join(home, 'chatos', 'ui_apps', 'plugins', 'mcpb.weather');
    expect(await page.getByTestId('bundle-command').textContent()).toBe(`node ${path.join(dir, 'server', 'index.mjs')} \${user_config.units}`);
    expect(await page.getByTestId('bundle-tools').textContent()).toBe('forecast');
    await page.getByTestId('bundle-config-api_key').fill('sk-window-1');
    await page.getByTestId('install-ok').click();
    await page.getByTestId('bundle-preview').waitFor({ state: 'detached' });
    await page.getByTestId('plugin-mcpb.weather').waitFor();

    expect((await runCli(['trust', 'mcpb.weather', '--home', home])).code).toBe(0);
    const tools = (await runCli(['tools', '--app', 'chatos', '--json', '--home', home])).json();
    const name = (tools.tools as { name: string }[]).map((t) => t.name).find((n) => n.endsWith('forecast'))!;
    const called = await runCli(['call', name, '--app', 'chatos', '--json', '--home', home]);
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.json().result.content[0].text)).toEqual({ sky: 'clear', units: 'metric', key: 'sk-window-1' });
  });

  it('warns of an unsigned update of the unsigned bundle and keeps the key when ticked; one of another author gets no box', async () => {
    const same = await packBundle(weatherManifest({ version: '1.0.1' }), 'unsigned-same');
    await page.getByTestId('install').click();
    await page.locator('.ant-modal input[type=file]').setInputFiles(same);
    const warning = page.getByTestId('bundle-unsigned-update');
    await warning.waitFor();
    expect(await warning.textContent()).toContain('Neither this copy nor the installed one is signed, so nothing shows they come from the same maker: its stored secrets (api_key)');
    await page.getByTestId('bundle-keep-secrets').click();
    await page.getByTestId('install-ok').click();
    await page.getByTestId('bundle-preview').waitFor({ state: 'detached' });

    const other = await packBundle(weatherManifest({ version: '1.0.2', author: { name: 'Someone Else' } }), 'unsigned-other');
    await page.getByTestId('install').click();
    await page.locator('.ant-modal input[type=file]').setInputFiles(other);
    await warning.waitFor();
    expect(await warning.textContent()).toContain('Unsigned, and not the same bundle (name and author) as the installed copy: its stored secrets (api_key) are not given to this bundle');
    expect(await page.getByTestId('bundle-keep-secrets').count()).toBe(0);
    await page.locator('.ant-modal-close').click();
    await page.getByTestId('bundle-preview').waitFor({ state: 'detached' });
  });

  it('warns of an update signed by another publisher, and gives it the stored key only when ticked', async () => {
    const other = await packBundle(weatherManifest({ version: '1.1.0' }), 'other-signer');
    signBundle(other, 'Other Publisher');
    await page.getByTestId('install').click();
    await page.locator('.ant-modal input[type=file]').setInputFiles(other);
    const warning = page.getByTestId('bundle-signer-changed');
    await warning.waitFor();
    expect(await warning.textContent()).toContain('Signed by another publisher than the installed copy: its stored secrets (api_key)');
    // Not ticked: the key is not carried over, and it is required.
    await page.getByTestId('install-ok').click();
    await page.getByTestId('install-error').waitFor();
    expect(await page.getByTestId('install-error').textContent()).toContain('API key is required');
    await page.getByTestId('bundle-keep-secrets').click();
    await page.getByTestId('install-ok').click();
    await page.getByTestId('bundle-preview').waitFor({ state: 'detached' });

    expect((await runCli(['trust', 'mcpb.weather', '--home', home])).code).toBe(0);
    const tools = (await runCli(['tools', '--app', 'chatos', '--json', '--home', home])).json();
    const name = (tools.tools as { name: string }[]).map((t) => t.name).find((n) => n.endsWith('forecast'))!;
    const called = await runCli(['call', name, '--app', 'chatos', '--json', '--home', home]);
    expect(JSON.parse(called.json().result.content[0].text)).toMatchObject({ key: 'sk-window-1' });
  });

  it('shows who signed a picked bundle, and refuses one changed after signing', async () => {
    const signed = await packBundle(undefined, 'signed');
    signBundle(signed, 'Weather Publisher');
    await page.getByTestId('install').click();
    await page.locator('.ant-modal input[type=file]').setInputFiles(signed);
    await page.getByTestId('bundle-preview').waitFor();
    expect(await page.getByTestId('bundle-signature').textContent()).toMatch(/^Self-signed by Weather Publisher/);
    await page.locator('.ant-modal-close').click();
    await page.getByTestId('bundle-preview').waitFor({ state: 'detached' });

    const tampered = path.join(path.dirname(signed), 'tampered.mcpb');
    const bytes = fs.readFileSync(signed);
    bytes[40] = bytes[40]! ^ 0xff;
    fs.writeFileSync(tampered, bytes);
    await page.getByTestId('install').click();
    await page.locator('.ant-modal input[type=file]').setInputFiles(tampered);
    await page.getByTestId('install-error').waitFor();
    expect(await page.getByTestId('install-error').textContent()).toContain('does not match its signature');
    expect(await page.getByTestId('bundle-preview').count()).toBe(0);
  });
});
