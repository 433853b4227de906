import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chooseOption, openChromiumOn, openRoute, screenshot, screenshotOnFailure, sendChatMessage, type ServeProcess, startServe } from '../helpers/browser.js';
import { startProviderServer, type ProviderServer } from '../helpers/providerServer.js';
import { runCli } from '../helpers/runCli.js';

/**
 * The Chat page against providers' habits (issue 41 items 1, 2, 3),
 * replayed byte for byte over real HTTP to a real `chatos serve`
 * (test/fixtures/providerStreams names each recording's public source):
 * xAI's "maximum prompt length" in its string envelope offers Summarize and
 * retry; Anthropic's paused turn goes on to its whole answer; Qwen3
 * Thinking-2507's thought, streamed without an opening <think>, folds apart
 * from the answer.
 * Screenshots: test-output/screenshots/habits-*.
 */

let provider: ProviderServer;
let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof openChromiumOn>>['chromium'];
let page: Page;
let home: string;

async function cli(args: string[]): Promise<void> {
  const run = await runCli([...args, '--home', home]);
  if (run.code !== 0) throw new Error(`chatos ${args.join(' ')}: ${run.stderr}`);
}

const send = (text: string) => sendChatMessage(page, text);
const phase = () => page.getByTestId('chat-pane').getAttribute('data-phase');
const answers = () => page.getByTestId('message-assistant');

async function newConversation(): Promise<void> {
  await page.getByTestId('chat-new').click();
  await page.getByTestId('chat-new-pane').waitFor();
}

beforeAll(async () => {
  provider = await startProviderServer({ shared: true });
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-habits-'));
  await cli(['models', 'add', 'local', '--name', 'Local', '--api', 'openai', '--base-url', provider.openaiUrl, '--model', 'recorded-model']);
  await cli(['models', 'add', 'claude', '--name', 'Claude', '--api', 'anthropic', '--base-url', provider.url, '--model', 'claude-sonnet-4-6']);
  for (const agent of [
    { id: 'helper', name: 'Helper', modelId: 'local', systemPrompt: 'Be brief.' },
    { id: 'searcher', name: 'Searcher', modelId: 'claude', systemPrompt: 'Search, then answer.' },
  ]) {
    const agentFile = path.join(home, `${agent.id}.json`);
    fs.writeFileSync(agentFile, JSON.stringify(agent));
    await cli(['agents', 'create', '--file', agentFile]);
  }
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  ({ chromium, page } = await openChromiumOn(serve));
  await openRoute(page, '#/chat', 'page-chat');
}, 240_000);

afterEach((context) => screenshotOnFailure(page, 'habits', context));

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  await provider?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

describe("providers' habits on the Chat page", { timeout: 180_000 }, () => {
  it('"maximum prompt length" in xAI\'s string envelope: the provider\'s words, and Summarize and retry that summarizes, then answers', async () => {
    await page.getByTestId('chat-new-pane').waitFor();
    await chooseOption(page, page.getByTestId('chat-agent'), 'Helper');
    provider.enqueue({ kind: 'reply', text: 'The first answer.' });
    await send('The first question.');
    await expect.poll(() => answers().count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(phase).toBe('done');

    provider.enqueue({ kind: 'fixture', name: 'xai-maximum-prompt-length' });
    const before = provider.requests.length;
    await send('A very long question.');
    const stopped = page.getByTestId('chat-stopped');
    await page.getByTestId('chat-summarize-retry').waitFor({ timeout: 30_000 });
    expect(await stopped.textContent()).toContain("This model's maximum prompt length is 131072");
    // A meaning, not a retried failure: one request.
    expect(provider.requests.length - before).toBe(1);
    await stopped.scrollIntoViewIfNeeded();
    await screenshot(page, 'habits-01-too-long');

    provider.enqueue({ kind: 'reply', text: 'Notes: a first question was asked and answered.' }, { kind: 'reply', text: 'The answer to the long one.' });
    await page.getByTestId('chat-summarize-retry').click();
    await expect.poll(() => answers().last().textContent(), { timeout: 30_000 }).toContain('The answer to the long one.');
    await expect.poll(phase).toBe('done');
    const [summary, retried] = provider.requests.slice(-2);
    expect(summary!.body.messages.some((m: any) => typeof m.content === 'string' && m.content.includes('The first question.'))).toBe(true);
    expect(JSON.stringify(retried!.body.messages)).toContain('Notes: a first question was asked and answered.');
    expect(await stopped.count()).toBe(0);
  });

  it('thinking streamed without an opening <think>: it leaves the answer as soon as </think> comes, and folds apart from it', async () => {
    await newConversation();
    await chooseOption(page, page.getByTestId('chat-agent'), 'Helper');
    // A first turn, so the page follows this conversation before the held stream's events come.
    provider.enqueue({ kind: 'reply', text: 'Ask away.' });
    await send('A sum, please.');
    await expect.poll(() => answers().count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(phase).toBe('done');
    // Qwen3 Thinking-2507's stream, held just after its lone "</think>" (11 events: the role, 8 of thought, "\n</", "think>").
    let release!: () => void;
    const open = new Promise<void>((resolve) => (release = resolve));
    provider.enqueue({ kind: 'fixture', name: 'qwen3-thinking-lone-close-tag', gate: { after: 11, open } });
    await send('1+1?');
    const streaming = page.getByTestId('message-streaming');
    const thought = 'Okay, the user asks how much 1+1 is. Simple addition: the answer is 2.';
    await expect.poll(() => streaming.getByTestId('thinking-text').textContent(), { timeout: 30_000 }).toContain(thought);
    // The text streamed so far as the answer moved to the Thinking block: none of it, nor the tag, is left outside.
    const outside = () =>
      streaming.evaluate((node) =>
        [...node.childNodes]
          .filter((child) => !(child as Element).matches?.('[data-testid="thinking-block"]'))
          .map((child) => child.textContent)
          .join(''),
      );
    await expect.poll(outside).not.toContain('Okay, the user asks');
    expect(await streaming.textContent()).not.toContain('</think>');
    await screenshot(page, 'habits-02-thought-moved');

    release();
    await expect.poll(() => answers().count(), { timeout: 30_000 }).toBe(2);
    await expect.poll(phase).toBe('done');
    const answer = answers().last();
    const block = answer.getByTestId('thinking-block');
    expect(await block.getAttribute('data-open')).toBe('false');
    await block.getByTestId('thinking-toggle').click();
    await expect.poll(() => block.getAttribute('data-open')).toBe('true');
    expect(await block.getByTestId('thinking-text').textContent()).toBe(`${thought}\n`);
    const answerText = await answer.evaluate((node) =>
      [...node.childNodes]
        .filter((child) => !(child as Element).matches?.('[data-testid="thinking-block"]'))
        .map((child) => child.textContent)
        .join(''),
    );
    expect(answerText).toContain('1 + 1 = 2.');
    expect(answerText).not.toContain('Okay, the user asks');
    expect(await answer.textContent()).not.toMatch(/<\/?think>/);
    await screenshot(page, 'habits-03-thought-folded');
  });

  it("Anthropic's paused turn (pause_turn during a web search) goes on to its whole answer, with no stop", async () => {
    await newConversation();
    await chooseOption(page, page.getByTestId('chat-agent'), 'Searcher');
    provider.enqueue({ kind: 'fixture', name: 'anthropic-pause-turn-web-search' }, { kind: 'fixture', name: 'anthropic-pause-turn-continued' });
    const before = provider.requests.length;
    await send('Latest rover news?');
    await expect.poll(() => answers().last().textContent(), { timeout: 30_000 }).toContain('Perseverance is exploring the Jezero crater rim and has cached another sample.');
    await expect.poll(phase).toBe('done');
    // The first half, then the second, sent the first half back as it came (ending with its open server-tool block).
    expect(provider.requests.length - before).toBe(2);
    expect(provider.requests[before + 1]!.body.messages.at(-1).content.at(-1)).toMatchObject({ type: 'server_tool_use', name: 'web_search' });
    await expect.poll(() => answers().count()).toBe(2);
    expect(await answers().first().textContent()).toContain("I'll search for the latest rover news.");
    expect(await page.getByTestId('chat-stopped').count()).toBe(0);
    expect(await page.getByTestId('message-stopped').count()).toBe(0);
    await screenshot(page, 'habits-04-paused-turn-whole');
  });
});
