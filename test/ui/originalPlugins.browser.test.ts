import * as fs from 'node:fs';
import * as os from 'node:os';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServedUi, screenshot, type ServeProcess } from '../helpers/browser.js';
import { originalPlugins } from '../helpers/originalPlugins.js';
import { runCli } from '../helpers/runCli.js';
import * as path from 'node:path';

/**
 * A plugin written for the original ChatOS, installed and trusted with the
 * CLI, mounted by `chatos serve` in Chromium as it is: its page reads
 * `host.context.get()` synchronously at mount and shows its ids, asks
 * `host.registry.list()` (scoped in the core to what its app may see) and
 * its backend. Each page logs the host's answers in a <pre>.
 */
let ui: Awaited<ReturnType<typeof openServedUi>>;
let serve: ServeProcess;
let page: Page;
let home: string;

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-original-'));
  for (const plugin of originalPlugins()) {
    expect((await runCli(['install', plugin.dir, '--home', home])).code).toBe(0);
    expect((await runCli(['trust', plugin.pluginId, '--home', home])).code).toBe(0);
  }
  ui = await openServedUi(['--home', home, '--no-watch']);
  ({ serve, page } = ui);
});

afterAll(async () => {
  expect(await ui?.close()).toBe(0);
  fs.rmSync(home, { recursive: true, force: true });
});

describe.each(originalPlugins())('$label in the window', ({ pluginId, appId }) => {
  it('mounts with its ids at once, and the bridge answers context.get, registry.list and its backend', async () => {
    await page.goto(`${serve.url}#/apps/${pluginId}/${appId}`);
    await page.getByTestId('page-uiapp').waitFor({ timeout: 20_000 });
    const frame = page.frameLocator('[data-testid="uiapp-frame"]');
    await expect.poll(() => frame.locator('body').textContent(), { timeout: 20_000 }).toContain(`${pluginId}:${appId} · theme=light · bridge=enabled`);
    const log = frame.locator('pre').last();
    await frame.getByRole('button', { name: 'context.get' }).click();
    await expect.poll(() => log.textContent()).toMatch(/context\.get[^\n]*\{/);
    await frame.getByRole('button', { name: 'registry.list' }).click();
    await expect.poll(() => log.textContent(), { timeout: 20_000 }).toContain(`${pluginId}::${pluginId}.${appId}`);
    await frame.getByRole('button', { name: 'backend.invoke ping' }).click();
    await expect.poll(() => log.textContent(), { timeout: 20_000 }).toMatch(/"pluginId":\s*"[^"]+"[\s\S]*"hello":\s*"world"/);
    const text = (await log.textContent())!;
    // The registry it sees is its own: the other plugin installed beside it is not listed.
    for (const other of originalPlugins().filter((p) => p.pluginId !== pluginId)) expect(text).not.toContain(other.pluginId);
    expect(text).not.toContain('.error');
    await screenshot(page, `original-${appId}`);
  });
});
