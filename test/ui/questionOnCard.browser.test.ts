import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type launchChromium, openChromiumOn, openRoute, screenshot, screenshotOnFailure, serveApi, type ServeProcess, startServe } from '../helpers/browser.js';
import { writeMcpYaml } from '../helpers/mcpYaml.js';
import { fileFolders, setUpDeskHome } from '../helpers/deskHome.js';
import { startProviderServer, type ProviderServer } from '../helpers/providerServer.js';
import { repoRoot } from '../helpers/tempDir.js';

/**
 * A server's question shows on the card of the call that caused it, and on no other (review finding F4): models repeat
 * call ids across conversations (many local servers send `call_0` every turn), so the host names a question's call by
 * its conversation and id. In Chromium against a real `chatos serve`, two real stdio MCP servers that ask during their
 * calls (test/fixtures/servers/askingServer.mjs) and the local provider server giving both conversations' calls one id.
 * Screenshot: test-output/screenshots/question-on-card-*.
 */

const ASKING_SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'askingServer.mjs');

let provider: ProviderServer;
let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
const folders = fileFolders();

const api = <T = any>(method: string, params: Record<string, unknown> = {}) => serveApi(serve)<T>(method, params);
type Pending = { pending: { kind: string; request: { id: string; conversationId?: string; domain?: string } }[] };

beforeAll(async () => {
  provider = await startProviderServer({ shared: true });
  const home = folders.make('chatos-ui-qcard-');
  const asking = { transport: 'stdio', command: process.execPath, args: [ASKING_SERVER] };
  writeMcpYaml(home, { trusted: asking, other: asking });
  await setUpDeskHome({ home, root: folders.make('chatos-ui-qcard-plugins-'), server: ['trusted', 'other'], providerUrl: provider.openaiUrl, apiKey: 'sk-qcard-test' });
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  ({ chromium, page } = await openChromiumOn(serve, { height: 1000 }));
});

afterEach((context) => screenshotOnFailure(page, 'question-on-card', context));

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  await provider?.close();
  folders.removeAll();
});

describe('a question on a call card', () => {
  it("is never another conversation's question whose call has the same id", async () => {
    provider.enqueue(
      { kind: 'reply', text: 'Opening it.', toolCalls: [{ id: 'call_0', name: 'mcp_trusted_open_page', arguments: { url: 'https://trusted.example.com/b' } }] },
      { kind: 'reply', text: 'Now elsewhere.', toolCalls: [{ id: 'call_0', name: 'mcp_other_open_page', arguments: { url: 'https://attacker.example.net/paste-your-key' } }] },
    );
    // Conversation B, on screen: its call asks (its question waits on its card).
    await openRoute(page, '#/chat', 'page-chat');
    const input = page.getByTestId('chat-input');
    await input.click();
    await input.fill('open the trusted page');
    await input.press('Enter');
    const card = page.getByTestId('tool-call-call_0');
    await card.getByTestId('elicitation-card').waitFor({ timeout: 30_000 });
    expect(await card.getByTestId('elicitation-domain').textContent()).toBe('trusted.example.com');

    // Conversation A, on no page: the other server asks during a call the model gave the same id.
    const other = await api<{ conversationId: string }>('chat.send', { agentId: 'helper', text: 'open the other page' });
    await expect.poll(async () => (await api<Pending>('questions.list')).pending.map((q) => q.request.domain), { timeout: 30_000 }).toEqual(['trusted.example.com', 'attacker.example.net']);
    const asked = (await api<Pending>('questions.list')).pending;
    expect(asked.map((q) => q.request.conversationId === other.conversationId)).toEqual([false, true]);

    // A's question waits above the page, as a question of a conversation no page shows; B's card keeps B's own.
    const global = page.getByTestId('global-elicitations').getByTestId('elicitation-card');
    await global.waitFor({ timeout: 20_000 });
    expect(await global.getByTestId('elicitation-domain').textContent()).toBe('attacker.example.net');
    expect(await card.getByTestId('elicitation-card').count()).toBe(1);
    expect(await card.getByTestId('elicitation-domain').textContent()).toBe('trusted.example.com');
    await screenshot(page, 'question-on-card-01-same-call-id');

    // Each answered where it is shown: both calls end, both conversations go on.
    provider.enqueue({ kind: 'reply', text: 'Done here.' }, { kind: 'reply', text: 'Done there.' });
    await global.getByTestId('elicitation-decline').click();
    await global.waitFor({ state: 'detached', timeout: 20_000 });
    await card.getByTestId('elicitation-decline').click();
    await expect.poll(() => page.getByTestId('chat-pane').getAttribute('data-phase'), { timeout: 30_000 }).toBe('done');
    await expect.poll(async () => (await api<Pending>('questions.list')).pending).toEqual([]);
  });
});
