import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chatServerEntry } from '../helpers/mcpYaml.js';
import { chooseOption, launchChromium, pageReady, restingMiddle, screenshot, serveApi, type ServeProcess, startServe } from '../helpers/browser.js';
import { writeMcpYaml } from '../helpers/mcpYaml.js';
import { fileFolders, setUpDeskHome } from '../helpers/deskHome.js';
import { startProviderServer, type ProviderServer } from '../helpers/providerServer.js';

/**
 * The Chat page in Chromium against a real `chatos serve`, the local
 * provider server (real OpenAI SSE on the wire) and the real chat fixture
 * MCP server over stdio: a message streams in; a tool call's card; two
 * confirm-level calls of one message on one card, one approved "always"
 * and one declined, the always-allowed tool listed and revoked in the
 * agent's settings; a sub-agent's run under its call; Stop mid-stream and
 * Resume; regenerate and edit as branches; rename, search, delete; and the
 * page in Chinese and dark. Screenshots: test-output/screenshots/chat-*.
 */

const KEY = 'sk-browser-chat-Q8mZt3LwR5';

/** A plugin page that chats through host.chat.*, writing what it gets into its own DOM for the test to read. */
const DESK_PAGE = `
export async function mount({ container, host }) {
  const log = (key, value) => {
    const line = document.createElement('div');
    line.dataset.key = key;
    line.textContent = typeof value === 'string' ? value : JSON.stringify(value);
    container.append(line);
    return line;
  };
  const input = document.createElement('input');
  input.id = 'foreign';
  const tryForeign = document.createElement('button');
  tryForeign.id = 'try-foreign';
  tryForeign.textContent = 'send to that conversation';
  tryForeign.onclick = () => host.chat.send({ sessionId: input.value, text: 'let me in' }).then((r) => log('foreign-ok', r), (e) => log('foreign-error', e.message));
  container.append(input, tryForeign);
  const { agent } = await host.chat.agents.createForApp({ name: 'Desk agent', prompt: 'Answer for the desk.' });
  log('agent', agent.id);
  log('agents', (await host.chat.agents.list()).agents.map((a) => a.id));
  const { session } = await host.chat.sessions.ensureDefault({ agentId: agent.id });
  log('session', session.id);
  const streamed = log('streamed', '');
  const unsubscribe = host.chat.events.subscribe({ sessionId: session.id }, (event) => {
    if (event.type === 'assistant_delta') streamed.textContent += event.delta;
    if (event.type === 'status' && event.status !== 'running') {
      log('status', event.status);
      host.chat.messages.list({ sessionId: session.id }).then((r) => log('messages', r.messages.map((m) => m.role + ':' + m.text)));
    }
  });
  await host.chat.send({ sessionId: session.id, text: 'hello from the desk' });
  return unsubscribe;
}
`;

let provider: ProviderServer;
let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;
/** Folders that live as long as the file's serve (tempDir() is removed after each test). */
const folders = fileFolders();

/** The HostApi as the renderer calls it. */
const api = <T = any>(method: string, params: Record<string, unknown> = {}) => serveApi(serve)<T>(method, params);

/** Types a message into the composer and sends it with Enter. */
async function send(text: string): Promise<void> {
  const input = page.getByTestId('chat-input');
  await input.click();
  await input.fill(text);
  await input.press('Enter');
}

const lastRequest = () => provider.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] };
const currentConversation = () => decodeURIComponent(/#\/chat\/([^/?#]+)/.exec(page.url())?.[1] ?? '');
const phase = () => page.getByTestId('chat-pane').getAttribute('data-phase');

beforeAll(async () => {
  provider = await startProviderServer({ shared: true });
  home = folders.make('chatos-ui-chat-');
  writeMcpYaml(home, { chat: chatServerEntry() });
  // Its page uses host.chat.* (the original ChatOS page API), for the last test.
  await setUpDeskHome({
    home,
    root: folders.make('chatos-ui-chat-plugins-'),
    server: 'chat',
    page: DESK_PAGE,
    providerUrl: provider.openaiUrl,
    apiKey: KEY,
    vision: true,
    agents: [
      { id: 'scout', name: 'Scout', description: 'Looks things up for the helper' },
      { id: 'helper', name: 'Helper', description: 'Answers with the local model', systemPrompt: 'Be brief.', subAgents: ['scout'] },
    ],
  });
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  chromium = await launchChromium();
  page = await chromium.context.newPage();
  await page.setViewportSize({ width: 1360, height: 860 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(serve.url);
  await page.getByTestId('nav-chat').click();
  await page.getByTestId('page-chat').waitFor({ timeout: 20_000 });
  await pageReady(page, '/chat');
});

// A failed step leaves a picture of the page to look at.
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await screenshot(page, `chat-failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
});

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  await provider?.close();
  folders.removeAll();
});

describe('the Chat page', { timeout: 120_000 }, () => {
  it('sends a message with Enter and shows the answer streaming, then in Markdown with highlighted code and its numbers', async () => {
    await page.getByTestId('chat-new-pane').waitFor();
    await chooseOption(page, page.getByTestId('chat-agent'), 'Helper');
    const answer = 'Hello from **the local model**.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```js\nconst answer = 42;\n```\n';
    const pieces = answer.match(/\S+\s*|\s+/g)!;
    // The answer holds after its first words (its first frame is the role's) until the test has seen them streaming.
    let seen!: () => void;
    const held = new Promise<void>((resolve) => (seen = resolve));
    provider.enqueue({ kind: 'reply', text: pieces, usage: { input: 21, output: pieces.length }, gate: { after: 3, open: held } });
    await send('Say hello');
    // The answer is shown while it is written: some of it, before the stored message exists.
    const streaming = page.getByTestId('message-streaming');
    await streaming.waitFor({ timeout: 20_000 });
    await expect.poll(() => streaming.textContent()).toContain('Hello');
    expect(await page.getByTestId('message-assistant').count()).toBe(0);
    expect(await phase()).toBe('running');
    await screenshot(page, 'chat-01-streaming-light-en');
    seen();

    const assistant = page.getByTestId('message-assistant');
    await assistant.waitFor({ timeout: 30_000 });
    await expect.poll(phase).toBe('done');
    expect(await assistant.locator('strong').textContent()).toBe('the local model');
    expect(await assistant.locator('table td').allTextContents()).toEqual(['1', '2']);
    const code = assistant.getByTestId('md-code');
    expect(await code.getAttribute('data-language')).toBe('js');
    await code.locator('pre[data-highlighted="true"] .hljs-keyword').first().waitFor();
    await code.getByTestId('md-code-copy').click();
    await expect.poll(() => code.getByTestId('md-code-copy').getAttribute('data-copied')).toBe('true');
    const stats = await assistant.getByTestId('answer-stats').textContent();
    expect(stats).toMatch(/first token [\d,]+ ms/);
    expect(stats).toMatch(/tok\/s/);
    expect(stats).toContain('21 in');
    expect(stats).toContain(`${pieces.length} out`);
    expect(await page.getByTestId('chat-totals').textContent()).toContain('1 answer');
    expect(currentConversation()).not.toBe('');
    expect(await page.getByTestId('chat-title').textContent()).toBe('Say hello');
    expect(await page.getByTestId('chat-agent-tag').textContent()).toContain('Helper');
    expect(provider.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(await page.content()).not.toContain(KEY);
    await screenshot(page, 'chat-02-answer-light-en');
  });

  it('Shift+Enter adds a line; a tool call shows as a card with its arguments, status, duration, result and image', async () => {
    provider.enqueue(
      {
        kind: 'reply',
        text: 'Let me check.',
        toolCalls: [
          { id: 'echo1', name: 'mcp_chat_echo', arguments: { text: 'ping' } },
          { id: 'img1', name: 'mcp_chat_image', arguments: {} },
        ],
      },
      { kind: 'reply', text: 'It said **ping** and drew a dot.' },
    );
    const input = page.getByTestId('chat-input');
    await input.click();
    await input.type('echo');
    await input.press('Shift+Enter');
    await input.type('ping');
    expect(await input.inputValue()).toBe('echo\nping');
    await input.press('Enter');
    const card = page.getByTestId('tool-call-echo1');
    await page.locator('[data-testid="tool-call-echo1"][data-status="ok"]').waitFor({ timeout: 30_000 });
    expect(await card.getByTestId('tool-call-duration').textContent()).toMatch(/\d+ ms/);
    // The answer after the calls streams in below the card and the view follows it. Pressed with the keyboard: even
    // with the turn over, the list was seen still measuring the rows below and moving the card between a pointer's
    // press and its release (CI, a quiet machine: the click was lost and the card stayed closed).
    await expect.poll(phase, { timeout: 30_000 }).toBe('done');
    await card.getByTestId('tool-call-toggle').press('Enter');
    await card.getByTestId('tool-call-args').waitFor();
    expect(await card.getByTestId('tool-call-args').textContent()).toBe('textping');
    expect(await card.getByTestId('tool-call-result').textContent()).toContain('ping');
    const image = page.getByTestId('tool-call-img1').getByTestId('tool-call-image').first();
    await image.waitFor();
    await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1);
    await expect.poll(phase).toBe('done');
    // Loaded again, the stored image comes with the url this face serves it at (conversations.get's artifactUrls).
    await page.reload();
    const stored = page.getByTestId('tool-call-img1').getByTestId('tool-call-image').first();
    await stored.waitFor({ timeout: 20_000 });
    await expect.poll(() => stored.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1);
    // The user's text went to the model with its line break.
    expect(provider.requests.at(-2)!.body.messages.at(-1)).toMatchObject({ role: 'user', content: 'echo\nping' });
    await screenshot(page, 'chat-03-tool-call-light-en');
  });

  it('two confirm-level calls of one message each ask on their own card: one approved always, one declined; the agent settings list the tool and revoke it', async () => {
    provider.enqueue(
      {
        kind: 'reply',
        toolCalls: [
          { id: 'da', name: 'mcp_chat_danger', arguments: { what: 'archive the old notes' } },
          { id: 'db', name: 'mcp_chat_danger', arguments: { what: 'delete everything' } },
        ],
      },
      { kind: 'reply', text: 'One done, one declined.' },
    );
    await send('Tidy up');
    // Each call's card holds its own question (the one question card), and says it waits for the person.
    const asking = (id: string) => page.locator(`[data-testid="tool-call-${id}"][data-status="awaiting"]`).getByTestId('tool-call-question');
    await asking('da').waitFor({ timeout: 30_000 });
    await asking('db').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('tool-call-da').getByTestId('tool-call-status').textContent()).toBe('waiting for your approval');
    // Nothing of it is shown twice: no group card under the calls, and the global area above the page leaves them to it.
    expect(await page.getByTestId('confirmation-group').count()).toBe(0);
    expect(await page.getByTestId('global-confirmations').count()).toBe(0);
    expect(await asking('da').getByTestId('confirm-args').textContent()).toBe('whatarchive the old notes');
    expect(await asking('db').getByTestId('confirm-args').textContent()).toBe('whatdelete everything');
    await screenshot(page, 'chat-04-grouped-confirmation-light-en');

    // The questions outlive the page: away to another page and back, each card asks again.
    const conversationAsking = currentConversation();
    await page.getByTestId('nav-agents').click();
    await page.getByTestId('nav-chat').click();
    await page.getByTestId(`conversation-${conversationAsking}`).click();
    await asking('da').waitFor({ timeout: 30_000 });
    await asking('da').getByTestId('confirm-approve-always').press('Enter');
    await page.locator('[data-testid="tool-call-da"][data-status="ok"]').waitFor({ timeout: 30_000 });
    await asking('db').getByTestId('confirm-decline').press('Enter');
    await page.locator('[data-testid="tool-call-db"][data-status="declined"]').waitFor({ timeout: 30_000 });
    await expect.poll(phase).toBe('done');
    expect(await page.getByTestId('tool-call-question').count()).toBe(0);
    expect((await api<{ entries: unknown[] }>('alwaysAllow.list', { agentId: 'helper' })).entries).toEqual([
      expect.objectContaining({ agentId: 'helper', toolName: 'mcp_chat_danger', serverId: 'chatos::chat' }),
    ]);

    const conversation = currentConversation();
    await page.getByTestId('nav-agents').click();
    await page.getByTestId('agent-edit-helper').click();
    const allowed = page.getByTestId('agent-always-allowed');
    await allowed.getByTestId('always-allowed-mcp_chat_danger').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('agent-model').textContent()).toContain('local');
    await allowed.scrollIntoViewIfNeeded();
    await screenshot(page, 'chat-05-agent-always-allowed-light-en');
    await allowed.getByTestId('always-allowed-revoke-mcp_chat_danger').click();
    await allowed.getByTestId('always-allowed-mcp_chat_danger').waitFor({ state: 'detached' });
    expect((await api<{ entries: unknown[] }>('alwaysAllow.list', { agentId: 'helper' })).entries).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByTestId('agent-editor').waitFor({ state: 'hidden' });
    await page.getByTestId('nav-chat').click();
    await page.getByTestId(`conversation-${conversation}`).click();
    await page.locator(`[data-testid="chat-pane"][data-conversation="${conversation}"]`).waitFor();
  });

  /**
   * Rows move by themselves (a row above measured late, a card that grows as its question fills in). A button that
   * moved between the press and the release got no click: the browser clicks what is under both, here the card around
   * it. The list clicks what was pressed when the pointer stayed still (renderer/src/components/chat/movedClicks.ts).
   */
  it('a button the list moved while it was pressed still gets the click; a press dragged away from it does not', async () => {
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'dm', name: 'mcp_chat_danger', arguments: { what: 'move the notes' } }] }, { kind: 'reply', text: 'Moved.' });
    await send('Move the notes');
    const card = page.locator('[data-testid="tool-call-dm"][data-status="awaiting"]').getByTestId('tool-call-question');
    await card.waitFor({ timeout: 30_000 });
    const approve = card.getByTestId('confirm-approve');
    // Counts the clicks the button itself gets, read when the release has been handled.
    await approve.evaluate((button) => {
      (window as unknown as { approveClicks: number }).approveClicks = 0;
      button.addEventListener('click', () => (window as unknown as { approveClicks: number }).approveClicks++, true);
    });
    const clicks = () => page.evaluate(() => (window as unknown as { approveClicks: number }).approveClicks);
    // The button's middle once the view has rested (it follows the answer down for a few frames), checked to be the button.
    const middle = async () => {
      const at = await restingMiddle(approve);
      expect(await onApprove(at), 'the button is under the pointer').toBe(true);
      return at;
    };
    const onApprove = (at: { x: number; y: number }) => page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('[data-testid="confirm-approve"]') != null, at);

    // Pressed, then dragged off before the release: no click, as anywhere.
    let at = await middle();
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    await page.mouse.move(at.x - 60, at.y + 40);
    await page.mouse.up();
    expect(await clicks()).toBe(0);
    expect(await card.count()).toBe(1);

    // Pressed, the card grows above the button (it moves down, away from the pointer), released where it was pressed.
    at = await middle();
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    await card.getByTestId('confirm-args').evaluate((args) => ((args as HTMLElement).style.paddingTop = '160px'));
    expect(await onApprove(at), 'the button moved away from under the pointer').toBe(false);
    await page.mouse.up();
    expect(await clicks()).toBe(1);
    await page.locator('[data-testid="tool-call-dm"][data-status="ok"]').waitFor({ timeout: 30_000 });
    await expect.poll(phase).toBe('done');
  });

  it("a sub-agent's run is collapsed under its call and opens to show that agent's conversation", async () => {
    provider.enqueue(
      { kind: 'reply', toolCalls: [{ id: 'sub1', name: 'subagent_scout', arguments: { task: 'Find the meeting time' } }] },
      { kind: 'reply', text: 'The meeting is at **3pm**.' },
      { kind: 'reply', text: 'Scout says 3pm.' },
    );
    await send('When is the meeting?');
    const card = page.getByTestId('tool-call-sub1');
    await page.locator('[data-testid="tool-call-sub1"][data-status="ok"]').waitFor({ timeout: 30_000 });
    await expect.poll(phase).toBe('done');
    const run = card.locator('[data-testid^="subagent-run-"]');
    await run.waitFor();
    expect(await run.getByTestId('message-assistant').count()).toBe(0);
    await run.getByTestId('subagent-toggle').click();
    await run.getByTestId('message-assistant').waitFor();
    expect(await run.getByTestId('message-user').textContent()).toContain('Find the meeting time');
    expect(await run.getByTestId('message-assistant').locator('strong').textContent()).toBe('3pm');
    await screenshot(page, 'chat-06-sub-agent-light-en');
  });

  it("a sub-agent's call is cancelled from its card while it runs, and the turn goes on", async () => {
    provider.enqueue(
      { kind: 'reply', toolCalls: [{ id: 'sub2', name: 'subagent_scout', arguments: { task: 'Wait for the answer' } }] },
      { kind: 'hang' },
      { kind: 'reply', text: 'The scout was cancelled.' },
    );
    await send('Ask the scout and wait');
    const card = page.getByTestId('tool-call-sub2');
    // With the keyboard: a button in the chat's list while the turn runs (docs/contributing/testing.md).
    await card.getByTestId('call-cancel').press('Enter');
    await page.locator('[data-testid="tool-call-sub2"][data-status="cancelled"]').waitFor({ timeout: 30_000 });
    await expect.poll(phase).toBe('done');
    expect(await page.getByTestId('message-assistant').last().textContent()).toContain('The scout was cancelled.');
    await screenshot(page, 'chat-06b-sub-agent-cancelled');
  });

  it('Stop keeps the partial answer and shows why it stopped; Resume continues', async () => {
    provider.enqueue({ kind: 'reply', text: ['Partial ', 'answer ', 'that ', 'never ', 'ends'], hangAfter: 3 });
    await send('Tell me a long story');
    await expect.poll(() => page.getByTestId('message-streaming').textContent(), { timeout: 20_000 }).toContain('Partial answer');
    await page.getByTestId('chat-stop').click();
    const stopped = page.getByTestId('chat-stopped');
    await stopped.waitFor({ timeout: 20_000 });
    expect(await stopped.getAttribute('data-kind')).toBe('user');
    const partial = page.locator('[data-testid="message-assistant"][data-status="stopped"]');
    await partial.waitFor();
    expect(await partial.textContent()).toContain('Partial answer');
    expect(await partial.getByTestId('message-stopped').textContent()).toBe('Stopped');
    await screenshot(page, 'chat-07-stopped-light-en');

    provider.enqueue({ kind: 'reply', text: 'Resumed: once upon a time.' });
    await page.getByTestId('chat-resume').click();
    await page.locator('[data-testid="message-assistant"]').filter({ hasText: 'Resumed: once upon a time.' }).waitFor({ timeout: 30_000 });
    await expect.poll(phase).toBe('done');
    expect(await page.getByTestId('chat-stopped').count()).toBe(0);
  });

  it('regenerates the last answer and edits a sent message, each as a branch beside the old one', async () => {
    provider.enqueue({ kind: 'reply', text: 'A second telling.' });
    await page.getByTestId('message-regenerate').press('Enter');
    await page.locator('[data-testid="message-assistant"]').filter({ hasText: 'A second telling.' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('sibling-nav').last().textContent()).toContain('/ 3');

    provider.enqueue({ kind: 'reply', text: 'A short one, then.' });
    const lastUser = page.getByTestId('message-user').last();
    await lastUser.getByTestId('message-edit').press('Enter');
    await lastUser.getByTestId('message-edit-input').fill('Tell me a short story');
    await lastUser.getByTestId('message-edit-save').press('Enter');
    await page.locator('[data-testid="message-assistant"]').filter({ hasText: 'A short one, then.' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('message-user').last().getByTestId('sibling-nav').textContent()).toContain('2 / 2');
    await page.getByTestId('message-user').last().getByTestId('sibling-previous').press('Enter');
    await expect.poll(() => page.getByTestId('message-user').last().textContent()).toContain('Tell me a long story');
    expect(lastRequest().messages.at(-1)).toMatchObject({ role: 'user', content: 'Tell me a short story' });
  });

  it('renames, searches and deletes conversations', async () => {
    const id = currentConversation();
    await page.getByTestId(`conversation-rename-${id}`).click();
    await page.getByTestId('conversation-title-input').fill('Greetings and tools');
    await page.getByTestId('conversation-rename-ok').click();
    await expect.poll(() => page.getByTestId('chat-title').textContent()).toBe('Greetings and tools');

    // A second conversation, to search across and to delete.
    provider.enqueue({ kind: 'reply', text: 'Bananas are yellow.' });
    await page.getByTestId('chat-new').click();
    // The new chat's pane, not the last conversation's composer still on screen: text typed there is lost when it goes.
    await page.getByTestId('chat-new-pane').waitFor();
    await send('What colour are bananas?');
    await page.locator('[data-testid="message-assistant"]').filter({ hasText: 'Bananas are yellow.' }).waitFor({ timeout: 30_000 });
    const second = currentConversation();
    expect(second).not.toBe(id);

    await page.getByTestId('chat-search').fill('ping');
    const hit = page.getByTestId('search-hit').first();
    await hit.waitFor();
    expect(await hit.getAttribute('data-conversation')).toBe(id);
    await hit.click();
    await page.locator(`[data-testid="chat-pane"][data-conversation="${id}"]`).waitFor();
    await page.getByTestId('chat-search').fill('');

    await page.getByTestId(`conversation-delete-${second}`).click();
    await page.getByTestId('conversation-delete-ok').click();
    await page.getByTestId(`conversation-${second}`).waitFor({ state: 'detached' });
    expect((await api<{ conversations: { id: string }[] }>('conversations.list')).conversations.map((c) => c.id)).toEqual([id]);
  });

  it('shows in Chinese and in the dark theme', async () => {
    await page.getByTestId('locale-switch').getByText('中文').click();
    await page.getByTestId('theme-switch').click();
    await expect.poll(() => page.getByTestId('chat-new').textContent()).toContain('新对话');
    expect(await page.getByTestId('chat-export').textContent()).toContain('导出');
    expect(await page.getByTestId('message-assistant').first().getByTestId('answer-stats').textContent()).toContain('首字');
    await page.getByTestId('tool-call-echo1').scrollIntoViewIfNeeded();
    await screenshot(page, 'chat-08-conversation-zh-dark');
    await page.getByTestId('locale-switch').getByText('EN').click();
    await expect.poll(() => page.getByTestId('chat-new').textContent()).toContain('New chat');
    await screenshot(page, 'chat-09-conversation-en-dark');
    await page.getByTestId('locale-switch').getByText('中文').click();
    await page.getByTestId('theme-switch').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await screenshot(page, 'chat-10-conversation-zh-light');
  });
});

describe("a plugin page's host.chat", { timeout: 120_000 }, () => {
  it("creates its own agent, chats in its own conversation with the events streamed to it, and is refused the user's", async () => {
    const usersConversation = (await api<{ conversations: { id: string; agentId: string }[] }>('conversations.list')).conversations.find((c) => c.agentId === 'helper')!.id;
    provider.enqueue({ kind: 'reply', text: ['Desk ', 'answer ', 'streamed.'], delayMs: 100 });
    await page.getByTestId('locale-switch').getByText('EN').click();
    await page.evaluate(() => (window.location.hash = '#/apps/com.example.desk/desk'));
    await pageReady(page, '#/apps/com.example.desk/desk');
    const frame = page.frameLocator('[data-testid="uiapp-frame"]');
    const line = (key: string) => frame.locator(`[data-key="${key}"]`);
    await line('status').waitFor({ timeout: 30_000 });
    expect(await line('status').textContent()).toBe('done');
    expect(await line('streamed').textContent()).toBe('Desk answer streamed.');
    await expect.poll(() => line('messages').textContent()).toBe(JSON.stringify(['user:hello from the desk', 'assistant:Desk answer streamed.']));
    const agentId = await line('agent').textContent();
    // Its own agent only: not the user's helper and scout.
    expect(await line('agents').textContent()).toBe(JSON.stringify([agentId]));
    const agent = (await api<{ agents: Record<string, unknown>[] }>('agents.list')).agents.find((a) => a.id === agentId)!;
    expect(agent).toMatchObject({ hostAppId: 'com.example.desk', ownerApp: { pluginId: 'com.example.desk', appId: 'desk' }, systemPrompt: 'Answer for the desk.' });
    // The request went to the model with the agent's prompt, through the same loop.
    expect(JSON.stringify(provider.requests.at(-1)!.body.messages[0])).toContain('Answer for the desk.');

    await frame.locator('#foreign').fill(usersConversation);
    await frame.locator('#try-foreign').click();
    await line('foreign-error').waitFor();
    expect(await line('foreign-error').textContent()).toContain("is not one of com.example.desk/desk's");
    expect(await line('foreign-ok').count()).toBe(0);
    await screenshot(page, 'chat-11-plugin-page-host-chat');
  });
});
