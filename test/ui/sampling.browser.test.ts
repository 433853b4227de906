import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type launchChromium, openChromiumOn, openRoute, screenshot, screenshotOnFailure, serveApi, type ServeProcess, startServe } from '../helpers/browser.js';
import { EVERYTHING_SERVER, writeMcpYaml } from '../helpers/mcpYaml.js';
import { fileFolders, setUpDeskHome } from '../helpers/deskHome.js';
import { startProviderServer, toolResultsIn, type ProviderServer } from '../helpers/providerServer.js';

/**
 * A server's request to sample the user's model (MCP sampling) in Chromium
 * against a real `chatos serve`, the MCP project's reference server over
 * stdio and the local provider server: in a chat, the scripted model calls
 * the server's sampling tool, the card shows the request inline, the user
 * edits the message and approves, sees the completion, sends it, and the
 * tool's result (with the completion) reaches the chat's model.
 * Screenshots: test-output/screenshots/sampling-*.
 */

let provider: ProviderServer;
let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;
const folders = fileFolders();

const api = <T = any>(method: string, params: Record<string, unknown> = {}) => serveApi(serve)<T>(method, params);

beforeAll(async () => {
  provider = await startProviderServer({ shared: true });
  home = folders.make('chatos-ui-sampling-');
  writeMcpYaml(home, { everything: { transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } });
  await setUpDeskHome({
    home,
    root: folders.make('chatos-ui-sampling-plugins-'),
    server: 'everything',
    providerUrl: provider.openaiUrl,
    apiKey: 'sk-sampling-test',
    agents: [{ id: 'helper', name: 'Helper', description: 'Writes poems' }],
  });
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  ({ chromium, page } = await openChromiumOn(serve, { height: 1000 }));
});

afterEach((context) => screenshotOnFailure(page, 'sampling', context));

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  await provider?.close();
  folders.removeAll();
});

describe('a sampling request during a chat', () => {
  it('shows inline; the user edits and approves, sees the completion, sends it, and the tool result reaches the chat', async () => {
    provider.enqueue(
      // The chat's model calls the server's sampling tool …
      {
        kind: 'reply',
        text: 'Let me ask the poem server.',
        toolCalls: [{ id: 'sample1', name: 'mcp_everything_trigger-sampling-request', arguments: { prompt: 'a poem about rain', maxTokens: 64 } }],
      },
      // … the server samples (this answers the user-approved request) …
      { kind: 'reply', text: 'Soft rain on the roof', usage: { input: 30, output: 6 } },
      // … and the chat's model reads the tool's result.
      { kind: 'reply', text: 'Here is your poem.' },
    );
    const before = provider.requests.length;
    await openRoute(page, '#/chat', 'page-chat');
    const input = page.getByTestId('chat-input');
    await input.click();
    await input.fill('get me a poem');
    await input.press('Enter');
    // On the card of the call that asked, which says it waits for you (not "running… Cancel call").
    const call = page.getByTestId('tool-call-sample1');
    const card = call.locator('[data-testid="sampling-card"][data-stage="review"]');
    await card.waitFor({ timeout: 30_000 });
    expect(await call.getAttribute('data-status')).toBe('asking');
    expect(await call.getByTestId('tool-call-status').textContent()).toBe('waiting for you');
    expect(await card.getByTestId('sampling-title').textContent()).toBe('everything asks to use your model (local)');
    expect(await card.getByTestId('sampling-system').inputValue()).toBe('You are a helpful test server.');
    const text = card.getByTestId('sampling-text');
    expect(await text.inputValue()).toBe('Resource trigger-sampling-request context: a poem about rain');
    // Shown in the conversation only, not again above the page.
    expect(await page.getByTestId('global-elicitations').count()).toBe(0);
    await screenshot(page, 'sampling-01-review');

    await text.fill('Write a four-word poem about rain.');
    await card.getByTestId('sampling-system').fill('You are a terse poet.');
    await card.getByTestId('sampling-always').click();
    await card.getByTestId('sampling-approve').click();

    const shown = call.locator('[data-testid="sampling-card"][data-stage="completion"]');
    await shown.waitFor({ timeout: 30_000 });
    expect(await shown.getByTestId('sampling-completion-text').textContent()).toBe('Soft rain on the roof');
    // The provider got the user's edit, not the server's words.
    const sampled = provider.requests[before + 1]!.body;
    expect(sampled.messages).toEqual([
      { role: 'system', content: 'You are a terse poet.' },
      { role: 'user', content: 'Write a four-word poem about rain.' },
    ]);
    await screenshot(page, 'sampling-02-completion');
    await shown.getByTestId('sampling-send').click();

    await expect.poll(() => page.getByTestId('chat-pane').getAttribute('data-phase'), { timeout: 30_000 }).toBe('done');
    await expect.poll(() => page.getByTestId('chat-pane').textContent()).toContain('Here is your poem.');
    const results = toolResultsIn(provider.requests.at(-1)!.body);
    const [, result] = results.find(([id]) => id === 'sample1')!;
    expect(result).toContain('Soft rain on the roof');
    expect((await api<{ pending: unknown[] }>('questions.list')).pending).toEqual([]);
    await screenshot(page, 'sampling-03-done');

    // "Always allow" was ticked: the server's page says so, and takes it back.
    expect(await api('sampling.alwaysAllowed', { serverId: 'chatos::everything' })).toEqual({ always: true });
    await openRoute(page, '#/servers/chatos::everything', 'server-detail-chatos::everything');
    const always = page.getByTestId('server-sampling-always');
    await always.waitFor({ timeout: 20_000 });
    expect(await always.textContent()).toContain('Sampling: always allowed');
    await screenshot(page, 'sampling-04-server-always');
    await page.getByTestId('server-sampling-revoke').click();
    await always.waitFor({ state: 'detached', timeout: 20_000 });
    expect(await api('sampling.alwaysAllowed', { serverId: 'chatos::everything' })).toEqual({ always: false });
  });
});
