import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServedUi, pageReady, screenshot } from '../helpers/browser.js';

/**
 * Issue 19, the Diagnostics page: the doctor's checks run in the host's
 * process and shown with their state and fix, in English and Chinese, in
 * Chromium against `chatos serve`.
 */

let ui: Awaited<ReturnType<typeof openServedUi>>;
let page: Page;
const made: string[] = [];

const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
};

beforeAll(async () => {
  const home = tempDir('chatos-diag-home-');
  const empty = tempDir('chatos-diag-empty-');
  fs.mkdirSync(path.join(home, 'chatos'), { recursive: true });
  fs.writeFileSync(path.join(home, 'chatos', 'mcp.yaml'), `version: 1\nservers:\n  fetcher:\n    command: uvx\n    args: [mcp-server-fetch]\n    env: { PATH: ${JSON.stringify(empty)} }\n`);
  ui = await openServedUi(['--home', home, '--no-watch']);
  page = ui.page;
  await page.setViewportSize({ width: 1280, height: 1000 });
});

afterAll(async () => {
  expect(await ui?.close()).toBe(0);
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the Diagnostics page', () => {
  it('lists every check with its state, and a failing server with the command, the PATH searched and the fix', async () => {
    await page.evaluate(() => (window.location.hash = '#/diagnostics'));
    await pageReady(page, '#/diagnostics');
    await page.getByTestId('page-diagnostics').waitFor({ state: 'visible', timeout: 20_000 });
    const server = page.getByTestId('diagnostic-server:chatos::fetcher');
    await server.waitFor({ timeout: 20_000 });
    expect(await server.getAttribute('data-status')).toBe('fail');
    expect(await server.textContent()).toContain('"uvx" was not found on PATH');
    expect(await server.getByTestId('diagnostic-fix').textContent()).toContain('install uvx');
    for (const id of ['app', 'electron', 'data-home', 'disk', 'path', 'headless-port', 'ui']) await page.getByTestId(`diagnostic-${id}`).waitFor();
    expect(await page.getByTestId('diagnostic-data-home').getAttribute('data-status')).toBe('ok');
    expect(await page.getByTestId('diagnostics-summary').textContent()).toMatch(/[1-9]\d* failed/);
    await screenshot(page, 'diagnostics-01-en');
  });

  it('reads in Chinese', async () => {
    await page.getByTestId('locale-switch').click();
    await expect.poll(() => page.getByTestId('page-diagnostics').textContent(), { timeout: 20_000 }).toContain('失败');
    expect(await page.getByTestId('page-diagnostics').textContent()).toContain('服务器 chatos::fetcher 的命令');
    await screenshot(page, 'diagnostics-02-zh');
    await page.getByTestId('locale-switch').click();
  });
});
