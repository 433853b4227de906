import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type launchChromium, openChromiumOn, openRoute, screenshot, screenshotOnFailure, serveApi, type ServeProcess, startServe } from '../helpers/browser.js';
import { writeMcpYaml } from '../helpers/mcpYaml.js';
import { fileFolders, setUpDeskHome } from '../helpers/deskHome.js';
import { startProviderServer, toolResultsIn, type ProviderServer } from '../helpers/providerServer.js';
import { repoRoot } from '../helpers/tempDir.js';

/**
 * A server's questions to the user (MCP elicitation) in Chromium against a
 * real `chatos serve` and a real stdio MCP server that asks during its tool
 * calls (test/fixtures/servers/askingServer.mjs): a form filled in the
 * Playground (defaults shown, a bad value refused by its field — by the
 * card, and by the host — the answer the tool got), a url shown by its domain and declined, a look-alike
 * warned about, a url opened only on the click; in a chat, the question
 * inline, what was typed kept while the card is away, and the answer
 * reaching the model; a question nobody else shows in the global area.
 * Screenshots: test-output/screenshots/elicitation-*.
 */

const ASKING_SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'askingServer.mjs');

let provider: ProviderServer;
let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;
const folders = fileFolders();

const api = <T = any>(method: string, params: Record<string, unknown> = {}) => serveApi(serve)<T>(method, params);

/** The form item of the server's field `name` on a card. */
const fieldOf = (card: Locator, name: string) => card.locator(`[data-testid="elicitation-field"][data-field="${name}"]`);
const errorOf = (card: Locator, name: string) => fieldOf(card, name).locator('.ant-form-item-explain-error');

/** Calls a tool of the Playground's selected agent with raw JSON arguments. */
async function callInPlayground(tool: string, args: Record<string, unknown>): Promise<void> {
  await page.getByTestId(`tool-row-${tool}`).click();
  await page.getByTestId('args-tab-raw').click();
  await page.getByTestId('args-raw').fill(JSON.stringify(args));
  await page.getByTestId('tool-call').click();
}

const playgroundResult = () => page.getByTestId('playground-tool').getByTestId('tool-result');

beforeAll(async () => {
  provider = await startProviderServer({ shared: true });
  home = folders.make('chatos-ui-elicit-');
  writeMcpYaml(home, { asking: { transport: 'stdio', command: process.execPath, args: [ASKING_SERVER] } });
  await setUpDeskHome({
    home,
    root: folders.make('chatos-ui-elicit-plugins-'),
    server: 'asking',
    providerUrl: provider.openaiUrl,
    apiKey: 'sk-elicitation-test',
    agents: [{ id: 'helper', name: 'Helper', description: 'Books tables' }],
  });
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  ({ chromium, page } = await openChromiumOn(serve, { height: 1000 }));
});

afterEach((context) => screenshotOnFailure(page, 'elicitation', context));

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  await provider?.close();
  folders.removeAll();
});

describe('a form question', () => {
  it('in the Playground: the defaults shown, a bad value refused by its field, and the tool gets what was sent', async () => {
    await openRoute(page, '#/playground', 'page-playground');
    await callInPlayground('mcp_asking_book_table', { restaurant: 'Chez Test' });
    const card = page.getByTestId('playground-tool').getByTestId('elicitation-card');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getByTestId('elicitation-title').textContent()).toMatch(/asking.* asks$/);
    // The server's words as it wrote them: its markup is text, not bold.
    const message = card.getByTestId('elicitation-message');
    expect(await message.textContent()).toBe('Book a table at Chez Test?\n<b>Tell us</b> who is coming.');
    expect(await message.locator('b').count()).toBe(0);
    // Each field from its schema, at the server's default; the required ones marked.
    expect(await fieldOf(card, 'guests').locator('input').inputValue()).toBe('2');
    expect(await fieldOf(card, 'meal').locator('.ant-radio-wrapper-checked').textContent()).toBe('Fish of the day');
    expect(await fieldOf(card, 'terrace').locator('button[role="switch"]').getAttribute('aria-checked')).toBe('true');
    expect(await fieldOf(card, 'extras').locator('.ant-checkbox-wrapper-checked').allTextContents()).toEqual(['bread']);
    expect(await fieldOf(card, 'name').locator('.ant-form-item-required').count()).toBe(1);
    expect(await fieldOf(card, 'email').locator('.ant-form-item-required').count()).toBe(0);
    expect(await fieldOf(card, 'name').locator('input').inputValue()).toBe('');
    await screenshot(page, 'elicitation-01-playground-form');

    // Submitted with a name too short and an address that is not one: each field says what is wrong, nothing is sent.
    await fieldOf(card, 'name').locator('input').fill('A');
    await fieldOf(card, 'email').locator('input').fill('not-an-address');
    await card.getByTestId('elicitation-submit').click();
    await expect.poll(() => errorOf(card, 'name').textContent()).toBe('At least 2 characters');
    await expect.poll(() => errorOf(card, 'email').textContent()).toBe('Not a valid email address');
    expect((await api<{ pending: unknown[] }>('questions.list')).pending).toHaveLength(1);
    await screenshot(page, 'elicitation-02-playground-bad-values');

    await fieldOf(card, 'name').locator('input').fill('Ada Lovelace');
    await fieldOf(card, 'email').locator('input').fill('ada@example.com');
    await fieldOf(card, 'meal').getByText('Vegetarian').click();
    await card.getByTestId('elicitation-submit').click();
    await card.waitFor({ state: 'detached', timeout: 20_000 });
    // The tool's own result: exactly what the form sent.
    await expect.poll(() => playgroundResult().textContent(), { timeout: 20_000 }).toContain('accept {');
    const sent = JSON.parse(/accept (\{.*\})/.exec((await playgroundResult().textContent()) ?? '')![1]!);
    expect(sent).toEqual({ name: 'Ada Lovelace', guests: 2, meal: 'veg', terrace: true, email: 'ada@example.com', extras: ['bread'] });
    expect((await api<{ pending: unknown[] }>('questions.list')).pending).toEqual([]);
  });

  it('a value the host refuses is shown under its field, with what was typed kept', async () => {
    // The card checks as the host does, so a refusal takes a value the card let through: the answer is altered on
    // its way (a guest count out of range) and the real host's refusal comes back to the real card.
    await page.route('**/api', async (route) => {
      const body = route.request().postDataJSON() as { method: string; params: { answer?: { kind: string; content?: Record<string, unknown> } } };
      const answer = body.params.answer;
      if (body.method !== 'questions.respond' || answer?.kind !== 'elicitation' || !answer.content) return route.continue();
      await route.continue({ postData: JSON.stringify({ ...body, params: { ...body.params, answer: { ...answer, content: { ...answer.content, guests: 40 } } } }) });
    });
    await page.getByTestId('tool-call').click();
    const card = page.getByTestId('playground-tool').getByTestId('elicitation-card');
    await card.waitFor({ timeout: 30_000 });
    await fieldOf(card, 'name').locator('input').fill('Ada');
    await card.getByTestId('elicitation-submit').click();
    await expect.poll(() => errorOf(card, 'guests').textContent()).toBe('must be at most 12');
    expect(await fieldOf(card, 'name').locator('input').inputValue()).toBe('Ada');
    expect((await api<{ pending: unknown[] }>('questions.list')).pending).toHaveLength(1);
    await screenshot(page, 'elicitation-03-host-refused');
    await page.unrouteAll();
    // Still waiting: declined from the card.
    await card.getByTestId('elicitation-decline').click();
    await expect.poll(() => playgroundResult().textContent(), { timeout: 20_000 }).toContain('decline');
  });
});

describe('a url question', () => {
  it('shows the domain before anything opens; Decline answers decline', async () => {
    await callInPlayground('mcp_asking_open_page', { url: 'https://accounts.example.com/sign-in?step=2&from=chatos' });
    const card = page.getByTestId('playground-tool').getByTestId('elicitation-card');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getAttribute('data-mode')).toBe('url');
    expect(await card.getByTestId('elicitation-domain').textContent()).toBe('accounts.example.com');
    expect(await card.getByTestId('elicitation-url').textContent()).toBe('https://accounts.example.com/sign-in?step=2&from=chatos');
    expect(await card.getByTestId('elicitation-lookalike').count()).toBe(0);
    expect(await card.getByTestId('elicitation-open').textContent()).toContain('Open accounts.example.com');
    await screenshot(page, 'elicitation-04-url');
    await card.getByTestId('elicitation-decline').click();
    await expect.poll(() => playgroundResult().textContent(), { timeout: 20_000 }).toContain('decline');
  });

  it('warns about a look-alike domain (punycode); Cancel answers cancel', async () => {
    await callInPlayground('mcp_asking_open_page', { url: 'https://xn--80ak6aa92e.com/login' });
    const card = page.getByTestId('playground-tool').getByTestId('elicitation-card');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getByTestId('elicitation-domain').textContent()).toBe('xn--80ak6aa92e.com');
    await card.getByTestId('elicitation-lookalike').waitFor();
    await screenshot(page, 'elicitation-05-url-lookalike');
    await card.getByTestId('elicitation-cancel').click();
    await expect.poll(() => playgroundResult().textContent(), { timeout: 20_000 }).toContain('cancel');
  });

  it('opens the page in a new tab only on Open, and answers accept', async () => {
    const target = `${serve.origin}/opened-by-a-question`;
    const tabs = chromium.context.pages().length;
    await callInPlayground('mcp_asking_open_page', { url: target });
    const card = page.getByTestId('playground-tool').getByTestId('elicitation-card');
    await card.waitFor({ timeout: 30_000 });
    // Nothing opened by the question itself.
    expect(chromium.context.pages()).toHaveLength(tabs);
    const [opened] = await Promise.all([chromium.context.waitForEvent('page'), card.getByTestId('elicitation-open').click()]);
    // The target is a page of ChatOS's own origin: once its script runs it adds its route (`#/chat`), so only the
    // address before that is the question's (CI at load 13 looked after the script had run).
    await expect.poll(() => opened.url().split('#')[0]).toBe(target);
    // A tab of its own that cannot reach back to ChatOS.
    expect(await opened.evaluate(() => window.opener)).toBeNull();
    await opened.close();
    await expect.poll(() => playgroundResult().textContent(), { timeout: 20_000 }).toContain('accept');
  });
});

describe('a question whose call ends', () => {
  it('goes away by itself when the call that asked is cancelled', async () => {
    await callInPlayground('mcp_asking_open_page', { url: 'https://accounts.example.com/later' });
    const card = page.getByTestId('playground-tool').getByTestId('elicitation-card');
    await card.waitFor({ timeout: 30_000 });
    await page.getByTestId('call-cancel').click();
    await card.waitFor({ state: 'detached', timeout: 20_000 });
    await page.getByTestId('call-cancelled').waitFor();
    expect((await api<{ pending: unknown[] }>('questions.list')).pending).toEqual([]);
  });
});

describe('a question during a chat', () => {
  it('shows inline; what was typed survives the card going away and coming back; the answer reaches the model', async () => {
    provider.enqueue(
      {
        kind: 'reply',
        text: `Let me book that.\n\n${Array.from({ length: 40 }, (_, i) => `${i + 1}. A line of the plan.`).join('\n')}`,
        toolCalls: [{ id: 'book1', name: 'mcp_asking_book_table', arguments: { restaurant: 'Chez Chat' } }],
      },
      { kind: 'reply', text: 'Booked for you.' },
    );
    const before = provider.requests.length;
    await openRoute(page, '#/chat', 'page-chat');
    const input = page.getByTestId('chat-input');
    await input.click();
    await input.fill('book me a table');
    await input.press('Enter');
    // On the card of the call that asked, which says it waits for you (not "running… Cancel call").
    const call = page.getByTestId('tool-call-book1');
    const card = call.getByTestId('elicitation-card');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getByTestId('elicitation-message').textContent()).toContain('Chez Chat');
    expect(await call.getAttribute('data-status')).toBe('asking');
    expect(await call.getByTestId('tool-call-status').textContent()).toBe('waiting for you');
    expect(await call.getByTestId('call-cancel').count()).toBe(0);
    // Shown in the conversation only, not again above the page.
    expect(await page.getByTestId('global-elicitations').count()).toBe(0);
    // Scrolled away from it, the question is announced on the button, which brings it back into view.
    const scroll = page.getByTestId('chat-scroll');
    const box = (await scroll.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -5000);
    const announced = page.locator('[data-testid="chat-jump-approval"][data-waiting="question"]');
    await announced.waitFor({ timeout: 20_000 });
    expect(await announced.textContent()).toContain('A server waits for your answer');
    await announced.click();
    await expect
      .poll(() =>
        card.evaluate((el) => {
          const view = el.closest('[data-testid="chat-scroll"]')!.getBoundingClientRect();
          const own = el.getBoundingClientRect();
          return own.bottom > view.top && own.top < view.bottom;
        }),
      )
      .toBe(true);
    await announced.waitFor({ state: 'detached' });
    await fieldOf(card, 'name').locator('input').fill('Grace Hopper');
    await fieldOf(card, 'guests').locator('input').fill('5');
    await screenshot(page, 'elicitation-06-chat');

    // Away from the chat, the question is shown above the other page, with what was typed.
    await openRoute(page, '#/apps', 'page-apps');
    const global = page.getByTestId('global-elicitations').getByTestId('elicitation-card');
    await global.waitFor();
    expect(await fieldOf(global, 'name').locator('input').inputValue()).toBe('Grace Hopper');
    expect(await fieldOf(global, 'guests').locator('input').inputValue()).toBe('5');
    await screenshot(page, 'elicitation-07-global');
    await page.goBack();
    await card.waitFor();
    expect(await fieldOf(card, 'name').locator('input').inputValue()).toBe('Grace Hopper');
    await card.getByTestId('elicitation-submit').click();

    await expect.poll(() => page.getByTestId('chat-pane').getAttribute('data-phase'), { timeout: 30_000 }).toBe('done');
    // The answer's row may first be a box of its size (rows render within a frame budget): wait for its text.
    await expect.poll(() => page.getByTestId('chat-pane').textContent()).toContain('Booked for you.');
    const results = toolResultsIn(provider.requests.slice(before).at(-1)!.body);
    const [, result] = results.find(([id]) => id === 'book1')!;
    expect(JSON.parse(/accept (\{.*\})/.exec(result)![1]!)).toEqual({ name: 'Grace Hopper', guests: 5, meal: 'fish', terrace: true, extras: ['bread'] });
  });

  it('a question of a conversation no page shows waits above whatever page is open', async () => {
    await openRoute(page, '#/agents', 'page-agents');
    const call = api<{ result?: { content: { text: string }[] } }>('tools.call', {
      agentId: 'helper',
      conversationId: 'elsewhere-1',
      tool: 'mcp_asking_open_page',
      args: { url: 'https://example.org/welcome' },
    });
    const card = page.getByTestId('global-elicitations').getByTestId('elicitation-card');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getByTestId('elicitation-domain').textContent()).toBe('example.org');
    await card.getByTestId('elicitation-decline').click();
    expect(JSON.stringify(await call)).toContain('decline');
    await card.waitFor({ state: 'detached' });
  });
});

describe('looks', () => {
  it('a form question in Chinese and dark, and in English and dark', async () => {
    await openRoute(page, '#/playground', 'page-playground');
    await page.getByTestId('locale-switch').getByText('中文').click();
    await page.getByTestId('theme-switch').click();
    await callInPlayground('mcp_asking_book_table', {});
    const card = page.getByTestId('playground-tool').getByTestId('elicitation-card');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getByTestId('elicitation-title').textContent()).toMatch(/向你提问$/);
    expect(await card.getByTestId('elicitation-submit').textContent()).toContain('提交');
    await card.getByTestId('elicitation-submit').click();
    await expect.poll(() => errorOf(card, 'name').textContent()).toBe('必填');
    await screenshot(page, 'elicitation-08-form-zh-dark');
    await page.getByTestId('locale-switch').getByText('EN').click();
    await expect.poll(() => card.getByTestId('elicitation-submit').textContent()).toContain('Submit');
    await expect.poll(() => errorOf(card, 'name').textContent()).toBe('Required');
    await screenshot(page, 'elicitation-09-form-en-dark');
    await card.getByTestId('elicitation-cancel').click();
    await card.waitFor({ state: 'detached', timeout: 20_000 });
    await page.getByTestId('theme-switch').click();
  });
});
