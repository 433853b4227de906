import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openChromiumOn, screenshot, screenshotOnFailure, serveApi, startServe, type ServeProcess } from '../helpers/browser.js';

/**
 * The Memory tab of the agent editor (docs/using/agents.md#memory) in a real
 * `chatos serve`: memory switched on and saved, the agent's memories listed,
 * searched by words, edited, forgotten and added; each change reaches the
 * host (read back through the api).
 */

let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof openChromiumOn>>['chromium'];
let page: Page;
let home: string;

const api = <T = any>(method: string, params: Record<string, unknown> = {}) => serveApi(serve)<T>(method, params);
/** The search box (antd puts the test id on its wrapper). */
const search = () => page.getByTestId('agent-memory-search').locator('input');
const memories = async () => (await api<{ memories: { id: string; text: string }[] }>('memory.list', { agentId: 'keeper' })).memories;

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'chatos-memory-ui-'));
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  ({ chromium, page } = await openChromiumOn(serve, { height: 1000 }));
  await api('agents.save', { agent: { id: 'keeper', name: 'Keeper' } });
}, 120_000);

afterEach(async (context) => screenshotOnFailure(page, 'memory', context));

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  fs.rmSync(home, { recursive: true, force: true });
});

/** Opens Keeper's editor on its Memory tab. */
async function openMemoryTab(): Promise<void> {
  await page.getByTestId('nav-agents').click();
  await page.getByTestId('agent-edit-keeper').click();
  await page.getByTestId('agent-section-memory').click();
  await page.getByTestId('agent-memory-enabled').waitFor({ state: 'visible' });
}

describe('the Memory tab', () => {
  it('switches memory on, and lists, searches, edits, forgets and adds the agent’s memories', async () => {
    await openMemoryTab();
    expect(await page.getByTestId('agent-memory-enabled').getAttribute('aria-checked')).toBe('false');
    await page.getByTestId('agent-memory-enabled').click();
    // The live preview offers the memory tools once the draft has memory on.
    await page.getByTestId('agent-editor').getByText('memory_recall').first().waitFor({ timeout: 30_000 });
    await page.getByTestId('agent-save').click();
    await page.getByTestId('agent-row-keeper').waitFor();
    expect((await api<{ agents: { id: string; memory?: unknown }[] }>('agents.list')).agents.find((a) => a.id === 'keeper')!.memory).toEqual({ enabled: true, shared: false });

    await api('memory.remember', { agentId: 'keeper', text: 'The user drinks green tea.' });
    await api('memory.remember', { agentId: 'keeper', text: 'Stand-up meetings are at 9:30.' });
    await openMemoryTab();
    const list = page.getByTestId('agent-memory');
    await list.getByText('The user drinks green tea.').waitFor();
    await list.getByText('Stand-up meetings are at 9:30.').waitFor();
    await expect.poll(() => page.getByTestId('agent-memory-summary').textContent()).toBe("This agent's own memories: 2 in all");
    await screenshot(page, 'memory-01-tab');

    // Searched by words: only the memory about tea.
    await search().fill('tea');
    await search().press('Enter');
    await expect.poll(() => list.locator('[data-testid^="agent-memory-m_"]').count()).toBe(1);
    await list.getByText('The user drinks green tea.').waitFor();
    await search().fill('');
    await search().press('Enter');
    await expect.poll(() => list.locator('[data-testid^="agent-memory-m_"]').count()).toBe(2);

    const [meetings, tea] = await memories();
    expect(tea!.text).toBe('The user drinks green tea.');
    await page.getByTestId(`agent-memory-edit-${tea!.id}`).click();
    await page.getByTestId('agent-memory-edit-text').fill('The user drinks black tea now.');
    await page.getByTestId('agent-memory-edit-save').click();
    await list.getByText('The user drinks black tea now.').waitFor();
    await page.getByTestId('agent-memory-edit-text').waitFor({ state: 'detached' });
    expect((await memories()).find((m) => m.id === tea!.id)!.text).toBe('The user drinks black tea now.');

    await page.getByTestId(`agent-memory-forget-${meetings!.id}`).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Forget' }).click();
    await page.getByTestId(`agent-memory-${meetings!.id}`).waitFor({ state: 'detached' });
    expect((await memories()).map((m) => m.text)).toEqual(['The user drinks black tea now.']);

    await page.getByTestId('agent-memory-add-text').fill('The user prefers short answers.');
    await page.getByTestId('agent-memory-add').click();
    await list.getByText('The user prefers short answers.').waitFor();
    expect((await memories()).map((m) => m.text).sort()).toEqual(['The user drinks black tea now.', 'The user prefers short answers.']);

    // Too long: refused by the host with its fix, nothing added.
    await page.getByTestId('agent-memory-add-text').fill('x'.repeat(4001));
    await page.getByTestId('agent-memory-add').click();
    await page
      .locator('.ant-message')
      .getByText(/at most 4000 characters/)
      .waitFor();
    expect(await memories()).toHaveLength(2);
    await screenshot(page, 'memory-02-edited');
  });
});
