import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openRoute, screenshot, type ServeProcess, startServe } from '../helpers/browser.js';
import { serveApi } from '../helpers/serveApi.js';
import { writeMcpYaml } from '../helpers/mcpYaml.js';

/**
 * A server's own log messages on the MCP servers page, in Chromium against
 * `chatos serve`: its log shows them with their level and logger, and the
 * log level chosen there is kept for the server
 * (docs/rules/mcp-yaml.md#server-log-messages).
 */

const SERVER = path.join(import.meta.dirname, '..', 'fixtures', 'servers', 'loggingServer.mjs');
let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-serverlog-'));
  writeMcpYaml(home, { talk: { transport: 'stdio', command: process.execPath, args: [SERVER], env: { LOG_AT_START: '1' } } });
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  // Started once to list its tools: it logs as it is initialized.
  await serveApi(serve, 'servers.tools', { serverId: 'chatos::talk' });
  chromium = await launchChromium();
  page = await chromium.context.newPage();
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto(serve.url);
  await page.getByTestId('page-chat').waitFor({ state: 'visible', timeout: 20_000 });
});

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  fs.rmSync(home, { recursive: true, force: true });
});

describe("a server's log on the MCP servers page", () => {
  it('shows its MCP log messages with level and logger, and keeps the log level chosen there', async () => {
    await openRoute(page, '#/servers', 'page-servers');
    await page.getByTestId('server-log-chatos::talk').click();
    const lines = page.getByTestId('server-log-lines');
    await expect.poll(() => lines.textContent(), { timeout: 20_000 }).toContain('[log:notice boot] logging server ready');

    // The choice is shown once the host kept it (the select shows the server's stored level); a click that landed while
    // the dropdown was still opening chose nothing, so it is made again until it took.
    const level = page.getByTestId('server-log-level');
    await expect
      .poll(
        async () => {
          if (!(await level.textContent())?.includes('error')) {
            await level.click();
            await page
              .locator('.ant-select-item-option')
              .filter({ hasText: /^error$/ })
              .click({ timeout: 5_000 })
              .catch(() => undefined);
          }
          return level.textContent();
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toContain('error');
    expect((await serveApi<{ servers: { id: string; logLevel?: string }[] }>(serve, 'servers.list')).servers.find((s) => s.id === 'chatos::talk')?.logLevel).toBe('error');
    await screenshot(page, 'server-log-level');
  });
});
