import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openChromiumOn, screenshot, screenshotOnFailure, serveApi, startServe, type ServeProcess } from '../helpers/browser.js';

/**
 * docs/using/agents.md#ready-built-in-tools: time, fetch and calculator are ready built-ins the user adds in
 * one click. On the Agents page, a saved agent's editor offers each; one
 * click switches it on and gives it to that agent (saved in the host at
 * once, the live preview shows its tool), and another agent gets nothing.
 * Fetch says it reaches the network. The settings assistant is added the
 * same way, per agent (docs/rules/settings-server.md#added-per-agent).
 */

let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof openChromiumOn>>['chromium'];
let page: Page;
let home: string;

const api = <T = any>(method: string, params: Record<string, unknown> = {}) => serveApi(serve)<T>(method, params);
type AgentRow = { id: string; uiApps: { pluginId: string; mcpServerIds: string[] }[] };
const hostPicks = async (id: string) => (await api<{ agents: AgentRow[] }>('agents.list')).agents.find((a) => a.id === id)!.uiApps.find((u) => u.pluginId === 'chatos')?.mcpServerIds ?? [];
const switches = async () => (await api<{ builtins: { name: string; enabled: boolean }[] }>('mcpServers.builtins')).builtins.map((b) => `${b.name}:${b.enabled}`);

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'chatos-ready-builtins-ui-'));
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  ({ chromium, page } = await openChromiumOn(serve, { height: 1000 }));
  await api('agents.save', { agent: { id: 'helper', name: 'Helper' } });
  await api('agents.save', { agent: { id: 'other', name: 'Other' } });
}, 120_000);

afterEach(async (context) => screenshotOnFailure(page, 'ready-builtins', context));

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  fs.rmSync(home, { recursive: true, force: true });
});

describe('ready built-in tools in the agent editor', () => {
  it('adds the calculator to one agent in one click: switched on, picked for it alone, its tool in the preview', async () => {
    expect(await switches()).toEqual(['time:false', 'fetch:false', 'calculator:false']);
    await page.getByTestId('nav-agents').click();
    // A saved agent's editor opens with "Tools and apps" expanded.
    await page.getByTestId('agent-edit-helper').click();
    const offer = page.getByTestId('agent-ready-builtins');
    await offer.waitFor({ timeout: 30_000 });
    for (const name of ['time', 'fetch', 'calculator']) await offer.getByTestId(`agent-add-builtin-${name}`).waitFor();
    // Fetch, and only fetch, says it reaches the network.
    expect(await offer.getByTestId('agent-builtin-network').count()).toBe(1);
    expect(await offer.getByTestId('agent-builtin-network').innerText()).toMatch(/network/i);
    await screenshot(page, 'ready-builtins-01-offer');

    await offer.getByTestId('agent-add-builtin-calculator').click();
    await expect.poll(() => hostPicks('helper'), { timeout: 20_000 }).toEqual(['chatos::calculator']);
    expect(await switches()).toEqual(['time:false', 'fetch:false', 'calculator:true']);
    await page.getByTestId('agent-editor').getByText('mcp_calculator_calculate').first().waitFor({ timeout: 30_000 });
    // Added, it is no longer offered; the others still are.
    await expect.poll(() => offer.getByTestId('agent-add-builtin-calculator').count()).toBe(0);
    expect(await offer.getByTestId('agent-add-builtin-time').count()).toBe(1);
    await screenshot(page, 'ready-builtins-02-added');

    expect(await hostPicks('other')).toEqual([]);
  });

  it('adds the settings assistant to that agent in one click, saying what it may change; the other agent still has nothing', async () => {
    const offer = page.getByTestId('agent-ready-builtins');
    expect(await offer.getByTestId('agent-builtin-settings-note').innerText()).toMatch(/settings/i);
    await offer.getByTestId('agent-add-builtin-settings').click();
    await expect.poll(() => hostPicks('helper'), { timeout: 20_000 }).toEqual(['chatos::calculator', 'chatos::settings']);
    await page.getByTestId('agent-editor').getByText('mcp_settings_list_agents').first().waitFor({ timeout: 30_000 });
    await expect.poll(() => offer.getByTestId('agent-add-builtin-settings').count()).toBe(0);
    expect(await hostPicks('other')).toEqual([]);
  });
});
