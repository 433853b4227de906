import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, pageReady, screenshot, serveApi, startServe, type ServeProcess } from '../helpers/browser.js';

/**
 * The syncAiContributes switch (docs/rules/names-and-exposure.md#where-the-contribution-lives)
 * on the Prompts and MCP servers pages of a real `chatos serve`: switched on
 * in one page, the built-in plugins' prompts and servers are listed as
 * copies of their plugin in both; the CLI's process would read the same row.
 */

let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'chatos-copies-ui-'));
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  chromium = await launchChromium();
  page = await chromium.context.newPage();
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto(serve.url);
}, 120_000);

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  fs.rmSync(home, { recursive: true, force: true });
});

describe('copies of plugins in the host lists', () => {
  it('are off at first; switched on from the Prompts page, both pages list them tagged with their plugin; off removes them', async () => {
    await page.evaluate(() => (window.location.hash = '#/prompts'));
    await pageReady(page, '#/prompts');
    const switchOf = (part: string) => page.getByTestId(`copies-switch-${part}`);
    await switchOf('prompts').waitFor({ timeout: 30_000 });
    expect(await switchOf('prompts').getAttribute('aria-checked')).toBe('false');
    await switchOf('prompts').click();
    const canvasPrompt = page.getByTestId('copy-prompts-mcp_chatos_canvas_canvas__en');
    await canvasPrompt.waitFor({ timeout: 20_000 });
    expect(await canvasPrompt.textContent()).toContain('copy of chatos.canvas / canvas');
    await screenshot(page, 'copies-01-prompts');

    await page.evaluate(() => (window.location.hash = '#/servers?tab=external'));
    await pageReady(page, '#/servers?tab=external');
    const canvasServer = page.getByTestId('copy-servers-chatos.canvas.canvas');
    await canvasServer.waitFor({ timeout: 20_000 });
    expect(await canvasServer.textContent()).toContain('copy of chatos.canvas / canvas');
    expect(await switchOf('servers').getAttribute('aria-checked')).toBe('true');
    await screenshot(page, 'copies-02-servers');
    // The page said what the core holds: the data home's row.
    expect((await serveApi(serve)<{ syncAiContributes: boolean }>('registry.copies', {})).syncAiContributes).toBe(true);

    await switchOf('servers').click();
    await expect.poll(() => canvasServer.count()).toBe(0);
    expect(await serveApi(serve)<{ servers: unknown[]; prompts: unknown[] }>('registry.copies', {})).toMatchObject({ syncAiContributes: false, servers: [], prompts: [] });
  });
});
