import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chooseOption, openChromiumOn, openRoute, screenshot, screenshotOnFailure, serveApi, type ServeProcess, startServe } from '../helpers/browser.js';
import { startProviderServer, type ProviderServer } from '../helpers/providerServer.js';
import { runCli } from '../helpers/runCli.js';

/**
 * The Chat page against recorded provider streams replayed over real HTTP
 * to a real `chatos serve`: the Thinking block streaming, then folding when
 * the answer starts; a refused answer; a cut answer and its Continue;
 * switching the model mid-conversation; the Thinking block in Chinese;
 * Mistral's content parts, <think> tags, a billing error and a context
 * window exceeded; a conversation opened while its model is still thinking.
 * Screenshots: test-output/screenshots/reasoning-*.
 */

let provider: ProviderServer;
let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof openChromiumOn>>['chromium'];
let page: Page;
const folders: string[] = [];

async function cli(home: string, args: string[]): Promise<void> {
  const run = await runCli([...args, '--home', home]);
  expect(run.code, `chatos ${args.join(' ')}: ${run.stderr}`).toBe(0);
}

/** Types a message into the composer of the open conversation (or the new one) and sends it with Enter. */
async function send(text: string): Promise<void> {
  const input = page.getByTestId('chat-input');
  await input.click();
  await input.fill(text);
  await input.press('Enter');
}

const phase = () => page.getByTestId('chat-pane').getAttribute('data-phase');
const lastAnswer = () => page.getByTestId('message-assistant').last();

/** A promise the test resolves when it has seen what it wanted: the provider holds its stream until then. */
function gate(): { open: Promise<void>; release(): void } {
  let release!: () => void;
  const open = new Promise<void>((resolve) => (release = resolve));
  return { open, release };
}

beforeAll(async () => {
  provider = await startProviderServer({ shared: true });
  // Folders of the file's own (tempDir() is removed after each test).
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-reasoning-'));
  folders.push(home);
  await cli(home, ['models', 'add', 'thinker', '--name', 'Thinker', '--api', 'openai', '--base-url', provider.openaiUrl, '--model', 'thinker-model', '--reasoning']);
  await cli(home, ['models', 'add', 'big', '--name', 'Big', '--api', 'openai', '--base-url', provider.openaiUrl, '--model', 'big-model']);
  const agentFile = path.join(home, 'agent.json');
  fs.writeFileSync(agentFile, JSON.stringify({ id: 'sage', name: 'Sage', modelId: 'thinker', systemPrompt: 'Think, then answer.' }));
  await cli(home, ['agents', 'create', '--file', agentFile]);
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  ({ chromium, page } = await openChromiumOn(serve));
  await openRoute(page, '#/chat', 'page-chat');
}, 240_000);

afterEach((context) => screenshotOnFailure(page, 'reasoning', context));

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  await provider?.close();
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

describe('reasoning and trouble on the Chat page', { timeout: 180_000 }, () => {
  it('the Thinking block streams open while the model thinks, and folds when the answer starts', async () => {
    await page.getByTestId('chat-new-pane').waitFor();
    // DeepSeek's stream, held after its last piece of thinking, before the first piece of the answer.
    const held = gate();
    provider.enqueue({ kind: 'fixture', name: 'deepseek-thinking-answer', gate: { after: 11, open: held.open } });
    await send('Is it sunny in San Francisco?');
    const block = page.getByTestId('message-streaming').getByTestId('thinking-block');
    await block.waitFor({ timeout: 30_000 });
    await expect.poll(() => block.getByTestId('thinking-text').textContent()).toContain('The tool echoed San Francisco. I can answer.');
    expect(await block.getAttribute('data-open')).toBe('true');
    expect(await block.getAttribute('data-live')).toBe('true');
    expect(await block.textContent()).toContain('Thinking…');
    await screenshot(page, 'reasoning-01-thinking-live');

    held.release();
    const answer = lastAnswer();
    await answer.waitFor({ timeout: 30_000 });
    await expect.poll(phase).toBe('done');
    const stored = answer.getByTestId('thinking-block');
    expect(await stored.getAttribute('data-open')).toBe('false');
    expect(await stored.textContent()).toMatch(/Thought for \d+ s/);
    expect(await answer.textContent()).toContain('It is sunny in San Francisco.');
    expect(await answer.getByTestId('answer-stats').textContent()).toContain('10 thinking');
    await screenshot(page, 'reasoning-02-thinking-folded');
    // Opened again on a click: the whole thought.
    await stored.getByTestId('thinking-toggle').click();
    await expect.poll(() => stored.getAttribute('data-open')).toBe('true');
    expect(await stored.getByTestId('thinking-text').textContent()).toBe('The tool echoed San Francisco. I can answer.');
    await screenshot(page, 'reasoning-03-thinking-opened');
  });

  it('a refused answer shows as a refusal', async () => {
    provider.enqueue({ kind: 'fixture', name: 'openai-chat-refusal' });
    await send('Help me with something bad.');
    const refusal = page.getByTestId('message-refusal');
    await refusal.waitFor({ timeout: 30_000 });
    expect(await refusal.textContent()).toContain("I'm sorry, but I can't help with that.");
    expect(await refusal.textContent()).toContain('The model declined to answer');
    await screenshot(page, 'reasoning-04-refusal');
  });

  it('a cut answer is marked cut, and Continue goes on from there', async () => {
    provider.enqueue({ kind: 'fixture', name: 'openai-chat-length' });
    await send('How do I bake bread?');
    const cut = page.getByTestId('message-cut');
    await cut.waitFor({ timeout: 30_000 });
    expect(await cut.textContent()).toContain('Cut at the token limit');
    await expect.poll(phase).toBe('done');
    await screenshot(page, 'reasoning-05-cut');
    provider.enqueue({ kind: 'reply', text: ' 220 °C, then knead the dough.' });
    const before = provider.requests.length;
    await cut.getByTestId('message-continue').press('Enter');
    await expect.poll(() => lastAnswer().textContent(), { timeout: 30_000 }).toContain('220 °C, then knead the dough.');
    expect(provider.requests[before]!.body.messages.at(-1).content).toMatch(/^Your previous answer was cut off/);
    // Continue is offered on the cut answer only while it is the last one.
    await expect.poll(() => page.getByTestId('message-continue').count()).toBe(0);
    await screenshot(page, 'reasoning-06-continued');
  });

  it('switching the model mid-conversation: the next answer comes from the new one, and says so', async () => {
    const picker = page.getByTestId('chat-model');
    await chooseOption(page, picker, 'Big');
    await page.locator('.ant-message').filter({ hasText: 'Answers now come from Big' }).waitFor({ timeout: 20_000 });
    provider.enqueue({ kind: 'reply', text: 'The big model here.' });
    const before = provider.requests.length;
    await send('Who answers now?');
    await expect.poll(() => lastAnswer().textContent(), { timeout: 30_000 }).toContain('The big model here.');
    expect(provider.requests[before]!.body.model).toBe('big-model');
    expect(await lastAnswer().getByTestId('answer-model').textContent()).toContain('answered by Big');
    expect(await page.getByTestId('message-assistant').first().getByTestId('answer-model').textContent()).toContain('answered by Thinker');
    await screenshot(page, 'reasoning-07-model-switched');
  });

  it('the Thinking block in Chinese', async () => {
    await page.getByTestId('locale-switch').getByText('中文').click();
    // The list shows only the rows near the view (a virtual list): each is looked for at the top, the middle and the end.
    const textInList = async (row: ReturnType<typeof page.getByTestId>) => {
      for (const at of [0, 0.5, 1]) {
        await page.getByTestId('chat-scroll').evaluate((box, share) => box.scrollTo({ top: share * box.scrollHeight }), at);
        // A jump is a fling: the rows it lands on are boxes until the view stands still (rowBudget.tsx).
        await expect.poll(() => page.locator('[data-pending-message]').count()).toBe(0);
        if (await row.count()) return (await row.textContent()) ?? '';
      }
      return '';
    };
    await expect.poll(() => textInList(page.getByTestId('message-assistant').first().getByTestId('thinking-block'))).toMatch(/已思考 \d+ 秒/);
    await expect.poll(() => textInList(page.getByTestId('message-refusal'))).toContain('模型拒绝回答');
    await page.getByTestId('chat-scroll').evaluate((box) => box.scrollTo({ top: 0 }));
    await screenshot(page, 'reasoning-08-zh');
  });

  it("other providers' shapes: Mistral's parts and <think> tags as thinking; billing stops at once, saying what to do; too long offers Summarize and retry", async () => {
    await page.getByTestId('locale-switch').getByText('EN').click();
    await page.getByTestId('chat-new').click();
    await page.getByTestId('chat-new-pane').waitFor();
    provider.enqueue({ kind: 'fixture', name: 'mistral-magistral-content-parts' });
    await send('What is 2 + 2?');
    await expect.poll(phase, { timeout: 30_000 }).toBe('done');
    const mistral = lastAnswer();
    expect(await mistral.getByTestId('thinking-block').textContent()).toMatch(/Thought/);
    expect(await mistral.textContent()).toContain('2 + 2 = 4');
    expect(await mistral.textContent()).not.toContain('[object Object]');

    provider.enqueue({ kind: 'fixture', name: 'ollama-deepseek-r1-think-tags' });
    await send('And a greeting?');
    await expect.poll(() => page.getByTestId('message-assistant').count(), { timeout: 30_000 }).toBe(2);
    await expect.poll(phase).toBe('done');
    const tags = lastAnswer();
    expect(await tags.getByTestId('thinking-block').count()).toBe(1);
    expect(await tags.textContent()).toContain('Hello! How can I help you today?');
    expect(await tags.textContent()).not.toMatch(/<\/?think>/);
    await screenshot(page, 'reasoning-09-parts-and-tags');

    provider.enqueue({ kind: 'fixture', name: 'openai-insufficient-quota-429' });
    const before = provider.requests.length;
    await send('One more?');
    const stopped = page.getByTestId('chat-stopped');
    await stopped.waitFor({ timeout: 30_000 });
    expect(await stopped.textContent()).toMatch(/billing/i);
    // Not retried: one request, where a rate limit would have been tried 4 times.
    expect(provider.requests.length - before).toBe(1);
    expect(await page.getByTestId('chat-summarize-retry').count()).toBe(0);
    await page.getByTestId('chat-stopped').scrollIntoViewIfNeeded();
    await screenshot(page, 'reasoning-10-billing');

    provider.enqueue({ kind: 'fixture', name: 'openai-context-length-exceeded' });
    await page.getByTestId('chat-resume').click();
    await page.getByTestId('chat-summarize-retry').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('chat-stopped').textContent()).toMatch(/summarize/i);
    await page.getByTestId('chat-stopped').scrollIntoViewIfNeeded();
    await screenshot(page, 'reasoning-11-too-long');
  });

  it('a conversation opened while its model thinks shows all it thought so far, not only what came after it was opened', async () => {
    // A window of its own that notes each thinking piece the host sends it, before any conversation is open in it.
    const { chromium: other, page: window } = await openChromiumOn(serve, {
      beforeLoad: (page) =>
        page.addInitScript(() => {
          const seen: string[] = ((globalThis as any).__thinking = []);
          const Native = WebSocket;
          (globalThis as any).WebSocket = class extends Native {
            constructor(...args: ConstructorParameters<typeof WebSocket>) {
              super(...args);
              this.addEventListener('message', (message) => typeof message.data === 'string' && message.data.includes('"chat.reasoning"') && seen.push(message.data));
            }
          };
        }),
    });
    try {
      // DeepSeek's stream, held after its thinking: the turn is started elsewhere (as a new chat is, before the page has its id).
      const held = gate();
      provider.enqueue({ kind: 'fixture', name: 'deepseek-thinking-answer', gate: { after: 11, open: held.open } });
      const { conversationId } = await serveApi(serve)<{ conversationId: string }>('chat.send', { agentId: 'sage', text: 'Is it sunny in San Francisco?' });
      // Every piece of the thought reached the window while no conversation was open in it.
      await expect.poll(() => window.evaluate(() => ((globalThis as any).__thinking as string[]).map((data) => JSON.parse(data).text).join(''))).toBe('The tool echoed San Francisco. I can answer.');
      await window.evaluate((id) => (window.location.hash = `#/chat/${id}`), conversationId);
      const block = window.getByTestId('message-streaming').getByTestId('thinking-block');
      await block.waitFor({ timeout: 30_000 });
      await expect.poll(() => block.getByTestId('thinking-text').textContent()).toContain('The tool echoed San Francisco. I can answer.');
      held.release();
      await expect.poll(() => window.getByTestId('chat-pane').getAttribute('data-phase')).toBe('done');
      expect(await window.getByTestId('message-assistant').last().textContent()).toContain('It is sunny in San Francisco.');
    } finally {
      await other.close();
    }
  });
});
