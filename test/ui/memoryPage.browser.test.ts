import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openRoute, screenshot, screenshotOnFailure, serveApi, startServe, type ServeProcess } from '../helpers/browser.js';

/**
 * The Memory page (docs/using/memory.md) in a real `chatos serve`: every
 * agent's memories in one place, one search over all of them, an edit that
 * then says who changed the memory (not "saved by" its agent), a memory of
 * 1 MB refused with the limit and nothing stored; in English light at
 * 1280×800 and Chinese dark at 1440×900.
 */

let serve: ServeProcess;
let home: string;
const closers: (() => Promise<void>)[] = [];
let current: Page | undefined;

const api = <T = any>(method: string, params: Record<string, unknown> = {}) => serveApi(serve)<T>(method, params);
const memories = async (agentId: string) => (await api<{ memories: { id: string; text: string; by: string; changedBy?: string }[] }>('memory.list', { agentId })).memories;

/** A memory the agent saved itself, in the memory file as the agent's memory_remember writes it. */
function agentSaved(agentId: string, text: string): void {
  const dir = path.join(home, 'chatos', 'memory', 'agents');
  fs.mkdirSync(dir, { recursive: true });
  const at = '2026-01-02T03:04:05.000Z';
  const memory = { id: 'm_00000000000000a1', text, createdAt: at, updatedAt: at, by: agentId };
  fs.writeFileSync(path.join(dir, `${agentId}.json`), JSON.stringify({ format: 'chatos-memory/1', memories: [memory] }));
}

async function openWindow(options: { width: number; height: number; locale: 'en' | 'zh'; theme: 'light' | 'dark' }): Promise<Page> {
  const chromium = await launchChromium();
  closers.push(chromium.close);
  const page = await chromium.context.newPage();
  await page.addInitScript(
    ({ locale, theme }) => {
      localStorage.setItem('chatos.locale', locale);
      localStorage.setItem('chatos.theme', theme);
    },
    { locale: options.locale, theme: options.theme },
  );
  await page.setViewportSize({ width: options.width, height: options.height });
  await page.emulateMedia({ colorScheme: options.theme });
  await page.goto(serve.url);
  await openRoute(page, '#/memory', 'page-memory');
  return page;
}

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'chatos-memory-page-'));
  agentSaved('helper', 'The user prefers short answers.');
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  await api('agents.save', { agent: { id: 'helper', name: 'Helper', memory: { enabled: true, shared: false } } });
  await api('agents.save', { agent: { id: 'keeper', name: 'Keeper' } });
  await api('memory.remember', { agentId: 'keeper', text: 'Stand-up meetings are at 9:30.' });
}, 120_000);

afterEach(async (context) => screenshotOnFailure(current, 'memory-page', context));

afterAll(async () => {
  for (const close of closers) await close();
  expect(await serve?.stop()).toBe(0);
  fs.rmSync(home, { recursive: true, force: true });
});

describe('the Memory page', { timeout: 90_000 }, () => {
  it('shows, searches and edits every agent’s memories, and refuses 1 MB with the limit (English, light, 1280×800)', async () => {
    const page = (current = await openWindow({ width: 1280, height: 800, locale: 'en', theme: 'light' }));
    const helper = page.getByTestId('memory-agent-helper');
    const keeper = page.getByTestId('memory-agent-keeper');
    await helper.getByText('The user prefers short answers.').waitFor();
    await keeper.getByText('Stand-up meetings are at 9:30.').waitFor();
    const [saved] = await memories('helper');
    expect(await page.getByTestId(`agent-memory-meta-${saved!.id}`).textContent()).toMatch(/saved by Helper$/);
    await screenshot(page, 'memory-page-01-en-light-1280');

    // One search over every agent: the stand-up is found in Keeper's list, Helper's has no match.
    const search = page.getByTestId('memory-search').locator('input');
    await search.fill('stand-up');
    await search.press('Enter');
    await helper.getByText('No memory matches').waitFor();
    await keeper.getByText('Stand-up meetings are at 9:30.').waitFor();
    await search.fill('');
    await search.press('Enter');
    await helper.getByText('The user prefers short answers.').waitFor();

    // Edited by the user: it says so, and who first saved it; the host keeps both.
    await page.getByTestId(`agent-memory-edit-${saved!.id}`).click();
    await page.getByTestId('agent-memory-edit-text').fill('The user prefers short answers, in English.');
    await page.getByTestId('agent-memory-edit-save').click();
    await helper.getByText('The user prefers short answers, in English.').waitFor();
    await expect.poll(() => page.getByTestId(`agent-memory-meta-${saved!.id}`).textContent()).toMatch(/changed by you \(first saved by Helper\)$/);
    expect((await memories('helper'))[0]).toMatchObject({ by: 'helper', changedBy: 'user' });

    // A memory of 1 MB: refused with the limit and its size; nothing is stored and the page goes on.
    const add = helper.getByTestId('agent-memory-add-text');
    await add.fill('y'.repeat(1024 * 1024));
    await helper.getByTestId('agent-memory-add').click();
    await page
      .locator('.ant-message')
      .getByText(/at most 4000 characters; this one has 1048576/)
      .waitFor();
    expect(await memories('helper')).toHaveLength(1);
    await add.fill('The user reads Chinese too.');
    await helper.getByTestId('agent-memory-add').click();
    await helper.getByText('The user reads Chinese too.').waitFor();
    expect((await memories('helper')).map((m) => m.text)).toContain('The user reads Chinese too.');
  });

  it('reads in Chinese and dark (1440×900)', async () => {
    const page = (current = await openWindow({ width: 1440, height: 900, locale: 'zh', theme: 'dark' }));
    await page.getByTestId('memory-agent-keeper').getByText('Stand-up meetings are at 9:30.').waitFor();
    const [edited] = (await memories('helper')).filter((m) => m.changedBy === 'user');
    await expect.poll(() => page.getByTestId(`agent-memory-meta-${edited!.id}`).textContent()).toMatch(/由 你 修改（最初由 Helper 保存）$/);
    expect(await page.getByTestId('memory-agent-helper').textContent()).toContain('记忆已开启');
    await screenshot(page, 'memory-page-02-zh-dark-1440');
  });
});
