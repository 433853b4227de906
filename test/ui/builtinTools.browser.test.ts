import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseOption, launchChromium, pageReady, screenshot, serveApi, type ServeProcess, startServe } from '../helpers/browser.js';
import { startProviderServer, toolResultsIn, type ProviderServer } from '../helpers/providerServer.js';

/**
 * The Built-in tab (docs/using/mcp-servers.md#built-in-tools): the calculator
 * is switched on in a real `chatos serve` with no node, npx or uvx on its
 * PATH, appears in the agent editor among the built-in servers, and a chat
 * turn of a scripted model (the local provider server) calls it through the
 * gateway; switched off, it is gone from the registry.
 */

let provider: ProviderServer;
let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;

const api = <T = any>(method: string, params: Record<string, unknown> = {}) => serveApi(serve)<T>(method, params);

beforeAll(async () => {
  provider = await startProviderServer({ shared: true });
  home = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'chatos-builtin-ui-'));
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8', PATH: '' });
  chromium = await launchChromium();
  page = await chromium.context.newPage();
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto(serve.url);
  await api('models.save', { model: { id: 'local', name: 'Local', api: 'openai', baseUrl: provider.openaiUrl, model: 'test-model' }, apiKey: 'sk-builtin' });
}, 120_000);

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  await provider?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('the Built-in tab', () => {
  it('switches the calculator on; the agent editor offers it; a chat calls it; switched off it is gone', async () => {
    await page.evaluate(() => (window.location.hash = '#/servers?tab=builtin'));
    await pageReady(page, '#/servers?tab=builtin');
    await page.getByTestId('builtin-tools').waitFor({ timeout: 30_000 });
    for (const name of ['time', 'fetch', 'calculator']) expect(await page.getByTestId(`builtin-switch-${name}`).getAttribute('aria-checked')).toBe('false');
    await page.getByTestId('builtin-switch-calculator').click();
    await expect.poll(() => page.getByTestId('builtin-switch-calculator').getAttribute('aria-checked'), { timeout: 20_000 }).toBe('true');
    expect(fs.readFileSync(path.join(home, 'chatos', 'mcp.yaml'), 'utf8')).toMatch(/calculator:\s+enabled: true/);
    // Its server card joins the tab, like any server's.
    await page.locator('[data-testid="page-servers"]').getByText('chatos::calculator').first().waitFor({ timeout: 20_000 });
    await screenshot(page, 'builtin-01-tab');

    await page.getByTestId('nav-agents').click();
    await pageReady(page, '/agents');
    await page.getByTestId('agent-new').click();
    await page.getByTestId('agent-name').fill('Counter');
    await chooseOption(page, page.getByTestId('agent-model'), 'local');
    await page.getByTestId('agent-section-tools').click();
    await page.getByTestId('agent-own-servers-select').click();
    const dropdown = page.locator('.ant-select-dropdown:visible');
    await dropdown
      .locator('.ant-select-item-option')
      .filter({ hasText: /^calculator/ })
      .click();
    await page.keyboard.press('Escape');
    await page.getByTestId('agent-editor').getByText('mcp_calculator_calculate').first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'builtin-02-agent-editor');
    await page.getByTestId('agent-save').click();
    await page.getByTestId('agent-row-counter').waitFor();

    await page.getByTestId('agent-chat-counter').click();
    await page.getByTestId('chat-new-pane').waitFor();
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'calc1', name: 'mcp_calculator_calculate', arguments: { expression: '0.1 + 0.2' } }] }, { kind: 'reply', text: 'It is 0.3.' });
    const input = page.getByTestId('chat-input');
    await input.click();
    await input.fill('what is 0.1 + 0.2?');
    await input.press('Enter');
    await page.locator('[data-testid="tool-call-calc1"][data-status="ok"]').waitFor({ timeout: 30_000 });
    await page.getByTestId('message-assistant').filter({ hasText: 'It is 0.3.' }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'builtin-03-chat');
    const sent = provider.requests.at(-1)!.body;
    expect(new Map(toolResultsIn(sent)).get('calc1')).toBe('0.3');

    await page.evaluate(() => (window.location.hash = '#/servers?tab=builtin'));
    await pageReady(page, '#/servers?tab=builtin');
    await page.getByTestId('builtin-switch-calculator').click();
    await expect.poll(() => page.getByTestId('builtin-switch-calculator').getAttribute('aria-checked'), { timeout: 20_000 }).toBe('false');
    const servers = await api<{ servers: { id: string }[] }>('registry.overview');
    expect(servers.servers.map((s) => s.id)).not.toContain('chatos::calculator');
  }, 180_000);
});
