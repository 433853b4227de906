import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chooseOption, openRoute, openServedUi, screenshot, screenshotOnFailure } from '../helpers/browser.js';
import { startProviderServer, type ProviderServer } from '../helpers/providerServer.js';
import { endlessChatAnswer } from '../helpers/providerWire/openaiChatWire.js';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * Issue 25 item 7 on the Chat page: a provider streams an answer without
 * end, one paragraph with no blank line. The host cuts it at its limit,
 * raised here to 4 MiB (`chatos serve --max-answer-chars`; 1 MiB by
 * default); the page shows it (its beginning, then all of it on "Show
 * all") and answers clicks and typing meanwhile. The old page parsed the
 * whole paragraph as Markdown at every update: ~40 s to show 1 MiB here, a
 * frozen tab for 4 MiB.
 * Screenshots: test-output/screenshots/chat-long-answer-*.
 */

const MiB = 1024 * 1024;
const LIMIT = 4 * MiB;
const PIECE = 'All work and no play makes a dull answer. '.repeat(400);

let provider: ProviderServer;
let ui: Awaited<ReturnType<typeof openServedUi>>;

beforeAll(async () => {
  provider = await startProviderServer({ shared: true });
  const home = tempDir();
  const cli = async (args: string[]) => {
    const run = await runCli([...args, '--home', home]);
    expect(run.code, `chatos ${args.join(' ')}: ${run.stderr}`).toBe(0);
  };
  await cli(['models', 'add', 'local', '--api', 'openai', '--base-url', provider.openaiUrl, '--model', 'test-model']);
  const agentFile = path.join(home, 'writer.json');
  fs.writeFileSync(agentFile, JSON.stringify({ id: 'writer', name: 'Writer', modelId: 'local', systemPrompt: 'Write.' }));
  await cli(['agents', 'create', '--file', agentFile]);
  ui = await openServedUi(['--home', home, '--no-watch', '--max-answer-chars', String(LIMIT)]);
  await ui.page.setViewportSize({ width: 1360, height: 860 });
});

afterEach((context) => screenshotOnFailure(ui?.page, 'chat-long-answer', context));

afterAll(async () => {
  expect(await ui?.close()).toBe(0);
  await provider?.close();
});

describe('a 200 MiB answer on the Chat page', { timeout: 180_000 }, () => {
  it('is cut at the limit and shown, and the page answers clicks and typing meanwhile', async () => {
    const { page } = ui;
    await openRoute(page, '#/chat', 'page-chat');
    await page.getByTestId('chat-new-pane').waitFor();
    await chooseOption(page, page.getByTestId('chat-agent'), 'Writer');
    provider.enqueue({ kind: 'frames', frames: endlessChatAnswer(200 * MiB, { piece: PIECE }) });
    const input = page.getByTestId('chat-input');
    await input.click();
    await input.fill('Write at length');
    await input.press('Enter');

    const answer = page.locator('[data-testid="message-assistant"][data-status="stopped"]');
    await answer.waitFor({ timeout: 60_000 });
    const stopped = page.getByTestId('chat-stopped');
    await stopped.waitFor();
    expect(await stopped.getAttribute('data-kind')).toBe('answer-limit');
    expect(await page.getByTestId('chat-stopped-reason').textContent()).toContain(`${LIMIT} characters`);
    expect(await answer.getByTestId('message-stopped').textContent()).toBe('Cut: the answer passed the length limit');
    expect(await answer.textContent()).toContain('All work and no play makes a dull answer.');

    // The page answers while the long answer is on it: a click focuses the composer, and typing shows.
    await input.click();
    await input.fill('still here');
    expect(await input.inputValue()).toBe('still here');

    // Its beginning is shown; "Show all" shows all of it, as text.
    const showAll = answer.getByTestId('message-show-all');
    expect(await showAll.textContent()).toContain(LIMIT.toLocaleString('en'));
    await showAll.scrollIntoViewIfNeeded();
    await screenshot(page, 'chat-long-answer-1-cut');
    await showAll.click();
    await showAll.waitFor({ state: 'detached' });
    const shownChars = () => answer.locator('.md-body').evaluate((body) => body.textContent!.length);
    expect(await shownChars()).toBe(LIMIT);
    await input.click();
    await input.fill('and still here');
    expect(await input.inputValue()).toBe('and still here');
    await stopped.scrollIntoViewIfNeeded();
    await screenshot(page, 'chat-long-answer-2-all');
  });
});
