import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chooseOption, type launchChromium, openChromiumOn, pageReady, screenshot, screenshotOnFailure, type ServeProcess, startServe } from '../helpers/browser.js';
import { chatServerEntry } from '../helpers/mcpYaml.js';
import { writeMcpYaml } from '../helpers/mcpYaml.js';
import { startProviderServer, type ProviderServer } from '../helpers/providerServer.js';
import { serveApi } from '../helpers/serveApi.js';

/**
 * A first run as a new user makes it, in Chromium against a real `chatos
 * serve` with nothing but a server of their own in mcp.yaml: the welcome
 * leads to adding a model, adding it offers a ready assistant, and one click
 * later the user is in a chat with it and reads the local provider's answer.
 * In Chinese and in English. Then (English) a server the user added is
 * picked for a new agent in the editor's "Your own servers", and the agent
 * calls it in a chat. Screenshots: test-output/screenshots/firstrun-*.
 */

interface Run {
  serve: ServeProcess;
  chromium: Awaited<ReturnType<typeof launchChromium>>;
  page: Page;
  home: string;
}

/** A whole flow of a person's clicks on a loaded machine (a serve starting, servers listing their tools): no deadline on its steps, one on the whole. */
const FLOW_MS = 240_000;

let provider: ProviderServer;
const runs: Run[] = [];

beforeAll(async () => {
  provider = await startProviderServer({ shared: true });
});

afterAll(async () => {
  for (const run of runs) {
    await run.chromium.close();
    expect(await run.serve.stop()).toBe(0);
    fs.rmSync(run.home, { recursive: true, force: true });
  }
  await provider?.close();
});

async function firstStart(locale: 'zh' | 'en'): Promise<Run> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), `chatos-ui-firstrun-${locale}-`));
  writeMcpYaml(home, { chat: chatServerEntry() });
  const serve = await startServe(['--home', home, '--no-watch'], { LANG: locale === 'zh' ? 'zh_CN.UTF-8' : 'en_US.UTF-8' });
  const { chromium, page } = await openChromiumOn(serve, { height: 900, beforeLoad: (p) => p.addInitScript((lang) => localStorage.setItem('chatos.locale', lang), locale) });
  const run = { serve, chromium, page, home };
  runs.push(run);
  return run;
}

/** Welcome → Models → add the local model → the ready assistant → a chat with it → its answer. */
async function addModelAndChat({ page }: Run, locale: 'zh' | 'en', words: { answer: string; question: string }): Promise<void> {
  const welcome = page.getByTestId('welcome');
  await welcome.waitFor({ timeout: 20_000 });
  await screenshot(page, `firstrun-${locale}-01-welcome`);
  await page.getByTestId('welcome-add-model').click();
  await page.getByTestId('page-models').waitFor();
  await pageReady(page, '/models');
  await page.getByTestId('model-add').first().click();
  await chooseOption(page, page.getByTestId('model-preset'), 'OpenAI-compatible');
  await page.getByTestId('model-name').fill('Local');
  await page.getByTestId('model-id').fill('local');
  await page.getByTestId('model-base-url').fill(provider.openaiUrl);
  await page.getByTestId('model-model').fill('test-model');
  await page.getByTestId('model-save').click();
  await page.getByTestId('model-row-local').waitFor();

  const offer = page.getByTestId('ready-assistant');
  await offer.waitFor();
  await screenshot(page, `firstrun-${locale}-02-offer`);
  await page.getByTestId('ready-assistant-create').click();
  await page.getByTestId('chat-new-pane').waitFor();
  await expect.poll(() => page.getByTestId('chat-agent').textContent()).toContain(locale === 'zh' ? '助手' : 'Assistant');

  provider.enqueue({ kind: 'reply', text: words.answer });
  const input = page.getByTestId('chat-input');
  await input.click();
  await input.fill(words.question);
  await input.press('Enter');
  const answer = page.getByTestId('message-assistant').filter({ hasText: words.answer });
  await answer.waitFor({ timeout: 30_000 });
  await screenshot(page, `firstrun-${locale}-03-answer`);
  // The assistant sent what a ready assistant has: its instructions and the tools of the built-in apps and the user's own server.
  const request = provider.requests.at(-1)!.body as { messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] };
  const tools = (request.tools ?? []).map((t) => t.function.name);
  expect(tools).toEqual(expect.arrayContaining(['mcp_chat_echo', 'mcp_chatos_notes_notes_add_note', 'mcp_chatos_canvas_canvas_patch_ui_state']));
  expect(JSON.stringify(request.messages[0])).toContain(locale === 'zh' ? '乐于助人' : 'helpful assistant');
}

describe('a first run, in Chinese', () => {
  let run: Run;
  afterEach((context) => screenshotOnFailure(run?.page, 'firstrun-zh', context));

  it(
    'goes from the welcome to an answer: add a model, take the ready assistant, say hello',
    async () => {
      run = await firstStart('zh');
      await addModelAndChat(run, 'zh', { question: '你好', answer: '你好！有什么可以帮你？' });
      // The offer is gone once an agent can chat.
      await run.page.getByTestId('nav-models').click();
      await run.page.getByTestId('model-row-local').waitFor();
      expect(await run.page.getByTestId('ready-assistant').count()).toBe(0);
    },
    FLOW_MS,
  );
});

describe('a first run, in English', () => {
  let run: Run;
  afterEach((context) => screenshotOnFailure(run?.page, 'firstrun-en', context));

  it(
    'goes from the welcome to an answer: add a model, take the ready assistant, say hello',
    async () => {
      run = await firstStart('en');
      await addModelAndChat(run, 'en', { question: 'Hello', answer: 'Hello! How can I help?' });
    },
    FLOW_MS,
  );

  it(
    'picks a server the user added in the agent editor, under "Your own servers", and uses it in a chat',
    async () => {
      const { page } = run;
      await page.getByTestId('nav-agents').click();
      await page.getByTestId('agent-chat-assistant').waitFor();
      await pageReady(page, '/agents');
      await page.getByTestId('agent-new').click();
      await page.getByTestId('agent-name').fill('Echo keeper');
      await chooseOption(page, page.getByTestId('agent-model'), 'local');
      await page.getByTestId('agent-system-prompt').fill('Echo what you are told.');
      // Name, model and instructions first; the rest waits under "Tools and apps" and "Advanced".
      expect(await page.getByTestId('agent-own-servers').isVisible()).toBe(false);
      await screenshot(page, 'firstrun-en-04-agent-form');
      await page.getByTestId('agent-section-tools').click();
      const own = page.getByTestId('agent-own-servers');
      await own.waitFor();
      await page.getByTestId('agent-own-servers-select').click();
      const dropdown = page.locator('.ant-select-dropdown:visible');
      expect(await dropdown.textContent()).toContain('Added by you');
      await dropdown.locator('.ant-select-item-option').filter({ hasText: /^chat/ }).click();
      await page.keyboard.press('Escape');
      // The live preview lists the server's tools for a chat.
      await page.getByTestId('agent-editor').getByText('mcp_chat_echo').first().waitFor({ timeout: 30_000 });
      await screenshot(page, 'firstrun-en-05-own-servers');
      await page.getByTestId('agent-save').click();
      await page.getByTestId('agent-row-echo_keeper').waitFor();

      const stored = await serveApi<{ agents: { id: string; uiApps: unknown[] }[] }>(run.serve, 'agents.list');
      expect(stored.agents.find((a) => a.id === 'echo_keeper')!.uiApps).toEqual([{ pluginId: 'chatos', appId: 'chatos', mcp: true, prompt: false, mcpServerIds: ['chatos::chat'], promptIds: [] }]);
      const shown = await serveApi<{ problems: { code: string }[] }>(run.serve, 'agents.preview', { agent: stored.agents.find((a) => a.id === 'echo_keeper')! });
      expect(shown.problems).toEqual([]);

      await page.getByTestId('agent-chat-echo_keeper').click();
      await page.getByTestId('chat-new-pane').waitFor();
      await expect.poll(() => page.getByTestId('chat-agent').textContent()).toContain('Echo keeper');
      provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'own1', name: 'mcp_chat_echo', arguments: { text: 'from my own server' } }] }, { kind: 'reply', text: 'It echoed.' });
      const input = page.getByTestId('chat-input');
      await input.click();
      await input.fill('echo something');
      await input.press('Enter');
      await page.locator('[data-testid="tool-call-own1"][data-status="ok"]').waitFor({ timeout: 30_000 });
      await page.getByTestId('message-assistant').filter({ hasText: 'It echoed.' }).waitFor({ timeout: 30_000 });
      await screenshot(page, 'firstrun-en-06-own-server-chat');
      // The call is on the record like any other.
      const history = await serveApi<{ records: { tool: string; agentId?: string }[] }>(run.serve, 'audit.list', { agentId: 'echo_keeper' });
      expect(history.records.some((r) => r.tool === 'mcp_chat_echo' && r.agentId === 'echo_keeper')).toBe(true);
    },
    FLOW_MS,
  );
});
