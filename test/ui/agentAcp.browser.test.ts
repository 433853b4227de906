import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openChromiumOn, screenshotOnFailure, serveApi, startServe, type ServeProcess } from '../helpers/browser.js';

/**
 * The agent editor and agents of kind `acp` (docs/using/acp.md) in a real `chatos serve`: an ACP agent edited in the
 * editor stays one, with its program and environment; a new one is made by choosing the kind and naming the program.
 */

let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof openChromiumOn>>['chromium'];
let page: Page;
let home: string;

const api = <T = any>(method: string, params: Record<string, unknown> = {}) => serveApi(serve)<T>(method, params);
const agentOf = async (id: string) => (await api<{ agents: { id: string; name: string; kind?: string; acp?: unknown }[] }>('agents.list')).agents.find((a) => a.id === id);

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'chatos-acp-ui-'));
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  ({ chromium, page } = await openChromiumOn(serve, { height: 1000 }));
  await api('agents.save', { agent: { id: 'codex', name: 'Codex', kind: 'acp', acp: { command: 'npx', args: ['@zed-industries/codex-acp'], env: { CODEX_HOME: '/somewhere' } } } });
}, 120_000);

afterEach(async (context) => screenshotOnFailure(page, 'agent-acp', context));

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  fs.rmSync(home, { recursive: true, force: true });
});

describe('agents of kind acp in the editor', () => {
  it('an ACP agent edited and saved stays one, with its program, arguments and environment', async () => {
    await page.getByTestId('nav-agents').click();
    await page.getByTestId('agent-edit-codex').click();
    await expect.poll(() => page.getByTestId('agent-acp-command').inputValue()).toBe('npx');
    await page.getByTestId('agent-acp-args').getByText('@zed-industries/codex-acp').waitFor();
    await page.getByTestId('agent-name').fill('Codex, renamed');
    await page.getByTestId('agent-save').click();
    await expect.poll(async () => (await agentOf('codex'))?.name).toBe('Codex, renamed');
    expect(await agentOf('codex')).toMatchObject({ kind: 'acp', acp: { command: 'npx', args: ['@zed-industries/codex-acp'], env: { CODEX_HOME: '/somewhere' } } });
  });

  it("its terminal level: off unless chosen, ask saved as the agent's, off again leaves no field", async () => {
    const terminalOf = async () => ((await agentOf('codex'))?.acp as { terminal?: string } | undefined)?.terminal;
    const choose = async (label: string) => {
      await page.getByTestId('nav-agents').click();
      await page.getByTestId('agent-edit-codex').click();
      await expect.poll(() => page.getByTestId('agent-acp-command').inputValue()).toBe('npx');
      await page.getByTestId('agent-acp-terminal').getByText(label).click();
      await page.getByTestId('agent-save').click();
    };
    expect(await terminalOf()).toBeUndefined();
    await choose('Ask each time');
    await expect.poll(terminalOf).toBe('ask');
    expect(await agentOf('codex')).toMatchObject({ acp: { command: 'npx', env: { CODEX_HOME: '/somewhere' } } });
    await choose('Off');
    await expect.poll(async () => (await agentOf('codex'))?.acp).toEqual({ command: 'npx', args: ['@zed-industries/codex-acp'], env: { CODEX_HOME: '/somewhere' } });
  });

  it('a new agent of kind acp: the kind chosen, the program and an argument named', async () => {
    await page.getByTestId('nav-agents').click();
    await page.getByTestId('agent-new').click();
    await page.getByTestId('agent-name').fill('Gemini');
    await page.getByTestId('agent-kind').getByText('ACP agent').click();
    await page.getByTestId('agent-acp-command').fill('gemini');
    await page.getByTestId('agent-acp-args').click();
    await page.keyboard.type('--experimental-acp');
    await page.keyboard.press('Enter');
    await page.getByTestId('agent-save').click();
    await expect.poll(async () => (await agentOf('gemini'))?.kind).toBe('acp');
    expect((await agentOf('gemini'))!.acp).toEqual({ command: 'gemini', args: ['--experimental-acp'] });
  });
});
