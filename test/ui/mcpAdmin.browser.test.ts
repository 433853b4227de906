import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { chooseOption, launchChromium, openRoute, pageReady, screenshot, type ServeProcess, startServe } from '../helpers/browser.js';
import { startHttpEverything } from '../helpers/everythingHttp.js';
import { repoRoot } from '../helpers/tempDir.js';

/**
 * Issue 18, "MCP servers from the UI" and the Prompts page, in Chromium
 * against a real `chatos serve` (without its file watcher: an edit reaches
 * the host through the edit itself). A stdio server and a streamable HTTP
 * one are added, tested, edited and deleted; a Claude Desktop config is
 * imported from a picked file; a template is added in one click; a prompt
 * goes round. mcp.yaml keeps its comment throughout, and a stored secret
 * never reaches the page. Screenshots: test-output/screenshots/mcp-*.
 */

// Several real servers start in most tests; on a busy two-core machine that takes a while (nothing here waits for time).
vi.setConfig({ testTimeout: 180_000 });

const CHAT_SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'chatServer.mjs');
const SECRET = 'tok-browser-stored-Q93kd';
const COMMENT = '# my servers: ChatOS must keep this line';

let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;
let mcpYaml: string;
let httpPort: number;

async function api<T = any>(method: string, params: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch(`${serve.origin}/api`, {
    method: 'POST',
    headers: { authorization: `Bearer ${serve.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ method, params }),
  });
  const text = await response.text();
  expect(text).not.toContain(SECRET);
  const reply = JSON.parse(text) as { ok: boolean; result?: T; error?: { message: string } };
  if (!reply.ok) throw new Error(`${method}: ${reply.error?.message}`);
  return reply.result as T;
}

const fileText = () => fs.readFileSync(mcpYaml, 'utf8');
const pageHasNoSecret = async () => expect(await page.content()).not.toContain(SECRET);

/** Picks an option of an antd Select by its label. */
async function choose(testId: string, text: string | RegExp): Promise<void> {
  await chooseOption(page, page.getByTestId(testId), text);
}

/** A drawer is fixed to the window: a full-page shot would draw it twice on a long page. */
async function windowShot(name: string): Promise<void> {
  const dir = path.join(repoRoot, 'test-output', 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  // A drawer slides in: shot once it is in place.
  // Only finite ones: a spinner's animation never finishes.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

async function closeEditor(): Promise<void> {
  await page.keyboard.press('Escape');
  await page.getByTestId('mcp-editor').waitFor({ state: 'hidden' });
}

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-mcp-'));
  mcpYaml = path.join(home, 'chatos', 'mcp.yaml');
  fs.mkdirSync(path.dirname(mcpYaml), { recursive: true });
  fs.writeFileSync(mcpYaml, `${COMMENT}\nversion: 1\nservers: {}\n`);
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  chromium = await launchChromium();
  page = await chromium.context.newPage();
  await page.setViewportSize({ width: 1360, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(serve.url);
  await page.getByTestId('nav-servers').click();
  await page.getByTestId('page-servers').waitFor({ timeout: 20_000 });
  await pageReady(page, '/servers');
});

// A test that failed with a drawer or dialog open must not take the next ones down with it.
afterEach(async () => {
  for (let i = 0; i < 3 && (await page.locator('.ant-drawer-open, .ant-modal-wrap:visible').count()) > 0; i++) {
    await page.keyboard.press('Escape');
    await page
      .locator('.ant-drawer-open, .ant-modal-wrap:visible')
      .first()
      .waitFor({ state: 'hidden', timeout: 5_000 })
      .catch(() => undefined);
  }
});

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  fs.rmSync(home, { recursive: true, force: true });
});

describe('a stdio server from the UI', () => {
  it('adds it with a stored secret, tests the form before saving, and saves it', async () => {
    await page.getByTestId('mcp-add').click();
    await page.getByTestId('mcp-form').waitFor();
    await page.getByTestId('mcp-name').fill('chat');
    await page.getByTestId('mcp-command').fill(process.execPath);
    await page.getByTestId('mcp-args').fill(CHAT_SERVER);
    await page.getByTestId('mcp-env-add').click();
    await page.getByTestId('mcp-env-key-0').fill('CHAT_TOKEN');
    await choose('mcp-env-kind-0', 'Stored secret');
    const secretField = page.getByTestId('mcp-env-value-0');
    expect(await secretField.getAttribute('type')).toBe('password');
    await secretField.fill(SECRET);
    await page.getByTestId('mcp-test').click();
    const result = page.locator('[data-testid="mcp-test-result"][data-ok="true"]');
    await result.waitFor({ timeout: 30_000 });
    expect(await result.textContent()).toContain('rendezvous');
    await windowShot('mcp-01-add-stdio-tested');
    await page.getByTestId('mcp-save').click();
    await page.getByTestId('mcp-editor').waitFor({ state: 'hidden' });
    await page.getByTestId('server-row-chatos::chat').waitFor();
    expect(fileText().startsWith(`${COMMENT}\n`)).toBe(true);
    expect(fileText()).toContain('CHAT_TOKEN: { secret: chat.env.CHAT_TOKEN }');
    expect(fileText()).not.toContain(SECRET);
    expect(fs.readFileSync(path.join(home, 'chatos', 'secrets.json'), 'utf8')).toContain(SECRET);
    await pageHasNoSecret();
  });

  it('tests the saved server from its card', async () => {
    await page.getByTestId('mcp-test-chat').click();
    const result = page.locator('[data-testid="mcp-test-result-chat"][data-ok="true"]');
    await result.waitFor({ timeout: 30_000 });
    expect(await result.textContent()).toMatch(/Connected in \d+ ms; found \d+ tools/);
    await screenshot(page, 'mcp-02-card-test');
    await page.keyboard.press('Escape');
    await result.waitFor({ state: 'hidden' });
  });

  it('edits it: the stored secret is not shown and is kept; a new variable is written', async () => {
    await page.getByTestId('mcp-edit-chat').click();
    await page.getByTestId('mcp-form').waitFor();
    expect(await page.getByTestId('mcp-env-value-0').inputValue()).toBe('');
    await pageHasNoSecret();
    await page.getByTestId('mcp-env-add').click();
    await page.getByTestId('mcp-env-key-1').fill('LOG_LEVEL');
    await page.getByTestId('mcp-env-value-1').fill('debug');
    await windowShot('mcp-03-edit-stdio');
    await page.getByTestId('mcp-save').click();
    await page.getByTestId('mcp-editor').waitFor({ state: 'hidden' });
    await expect.poll(fileText).toContain('LOG_LEVEL: debug');
    expect(fileText()).toContain('CHAT_TOKEN: { secret: chat.env.CHAT_TOKEN }');
  });
});

describe('which Node runs a node server', () => {
  it('is offered for a bare node command only, and the choice is tested and saved', async () => {
    await page.getByTestId('mcp-edit-chat').click();
    await page.getByTestId('mcp-form').waitFor();
    // Its command is a path to a Node binary: that names its own, so there is no choice to make.
    expect(await page.getByTestId('mcp-node-runtime').count()).toBe(0);
    await page.getByTestId('mcp-command').fill('node');
    await page.getByTestId('mcp-node-runtime').waitFor();
    await choose('mcp-node-runtime', /^The app's own Node$/);
    await windowShot('mcp-03b-node-runtime');
    await page.getByTestId('mcp-test').click();
    await page.locator('[data-testid="mcp-test-result"][data-ok="true"]').waitFor({ timeout: 30_000 });
    await page.getByTestId('mcp-save').click();
    await page.getByTestId('mcp-editor').waitFor({ state: 'hidden' });
    await expect.poll(fileText).toContain('nodeRuntime: bundled');
    expect(fileText()).toContain('command: node');
  });
});

describe('a streamable HTTP server from the UI', () => {
  it('adds it by url, tests it, and a wrong url says why it failed', async () => {
    // Started here: the helper ends it after the test.
    httpPort = await startHttpEverything();
    await page.getByTestId('mcp-add').click();
    await page.getByTestId('mcp-form').waitFor();
    await page.getByTestId('mcp-name').fill('remote');
    await page.getByTestId('mcp-transport').getByText('Remote (streamable HTTP)').click();
    await page.getByTestId('mcp-url').fill(`http://127.0.0.1:${httpPort}/mcp`);
    await page.getByTestId('mcp-test').click();
    await page.locator('[data-testid="mcp-test-result"][data-ok="true"]').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('mcp-test-result').textContent()).toContain('echo');
    await page.getByTestId('mcp-save').click();
    await page.getByTestId('mcp-editor').waitFor({ state: 'hidden' });
    await page.getByTestId('server-row-chatos::remote').waitFor();

    await page.getByTestId('mcp-edit-remote').click();
    await page.getByTestId('mcp-url').fill('http://127.0.0.1:9/mcp');
    await page.getByTestId('mcp-test').click();
    const failed = page.locator('[data-testid="mcp-test-result"][data-ok="false"]');
    await failed.waitFor({ timeout: 30_000 });
    expect(await failed.getAttribute('data-reason')).toBe('HTTP_CONNECT_FAILED');
    expect(await failed.textContent()).toContain('Could not connect over streamable HTTP');
    await windowShot('mcp-04-http-test-failed');

    // A WebSocket url is refused on its field, and nothing is written.
    const before = fileText();
    await page.getByTestId('mcp-url').fill('ws://127.0.0.1:9/mcp');
    await page.getByTestId('mcp-save').click();
    await expect.poll(() => page.locator('.ant-form-item-explain-error').allTextContents()).toEqual([expect.stringContaining('WebSocket')]);
    expect(fileText()).toBe(before);
    await windowShot('mcp-05-http-field-error');
    await closeEditor();
  });

  it('disables it in mcp.yaml and enables it again', async () => {
    await page.getByTestId('mcp-toggle-remote').click();
    await expect.poll(fileText).toMatch(/remote:\n(.*\n)*? {4}disabled: true/);
    await expect.poll(() => page.getByTestId('mcp-toggle-remote').textContent()).toContain('Enable');
    await page.getByTestId('mcp-toggle-remote').click();
    await expect.poll(fileText).not.toContain('disabled: true');
  });
});

describe('deleting', () => {
  it('deletes both servers after a confirmation; their stored secret goes with them, the comment stays', async () => {
    for (const name of ['chat', 'remote']) {
      await page.getByTestId(`mcp-delete-${name}`).click();
      await page.getByTestId('mcp-delete-ok').click();
      await page.getByTestId(`server-row-chatos::${name}`).waitFor({ state: 'detached' });
    }
    expect(fileText()).not.toMatch(/^ {2}(chat|remote):/m);
    expect(fileText().startsWith(`${COMMENT}\n`)).toBe(true);
    expect(fs.readFileSync(path.join(home, 'chatos', 'secrets.json'), 'utf8')).not.toContain(SECRET);
  });
});

describe('importing a Claude Desktop config', () => {
  it('shows the plan from a picked file (a conflict, a refused SSE server) and imports with the choice made', async () => {
    await api('mcpServers.add', { server: { name: 'memory', transport: 'stdio', command: 'node', args: ['memory.js'] } });
    const config = path.join(home, 'claude_desktop_config.json');
    fs.writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          everything: { command: process.execPath, args: [path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js'), 'stdio'] },
          memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
          github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: SECRET, NODE_OPTIONS: '--require ./hook.js' } },
          legacy: { url: 'http://127.0.0.1:8000/sse' },
        },
      }),
    );
    await page.getByTestId('mcp-import-open').click();
    await page.getByTestId('mcp-import-panel').waitFor();
    await page.locator('[data-testid="mcp-import-panel"] input[type="file"]').setInputFiles(config);
    await page.getByTestId('mcp-import-row-legacy').waitFor();
    expect(await page.getByTestId('mcp-import-row-everything').getAttribute('data-status')).toBe('add');
    expect(await page.getByTestId('mcp-import-row-memory').getAttribute('data-status')).toBe('conflict');
    expect(await page.getByTestId('mcp-import-row-legacy').getAttribute('data-status')).toBe('refused');
    expect(await page.getByTestId('mcp-import-row-legacy').textContent()).toContain('old HTTP+SSE transport');
    await choose('mcp-import-choice-memory', 'Rename to memory-2');
    // Everything a server would run with is in the plan: each variable (a stored one masked), a preload flagged (issue 25).
    const githubRun = page.getByTestId('mcp-import-run-github');
    expect(await githubRun.textContent()).toContain('GITHUB_PERSONAL_ACCESS_TOKEN=•••• (kept in the key store)');
    expect(await githubRun.locator('[data-changes-code="true"]').textContent()).toBe('NODE_OPTIONS="--require ./hook.js"decides which code runs');
    expect(await githubRun.textContent()).toContain("Folder: the host's working folder");
    expect(await page.getByTestId('mcp-import-row-github').textContent()).toContain('NODE_OPTIONS is set to "--require ./hook.js": it decides which code the server runs');
    await page.getByTestId('mcp-import-row-github').scrollIntoViewIfNeeded();
    await windowShot('mcp-06-import-plan');
    // The pasted text holds the token (the user's own file); the plan does not repeat it.
    expect(await page.getByTestId('mcp-import-row-github').textContent()).not.toContain(SECRET);
    await page.getByTestId('mcp-import-apply').click();
    await page.getByTestId('mcp-import').waitFor({ state: 'hidden' });
    await page.getByTestId('server-row-chatos::everything').waitFor();
    const { servers } = await api<{ servers: { name: string }[] }>('mcpServers.list');
    expect(servers.map((s) => s.name)).toEqual(['memory', 'everything', 'memory-2', 'github']);
    expect(fileText()).not.toContain(SECRET);
    expect(fileText().startsWith(`${COMMENT}\n`)).toBe(true);
    await pageHasNoSecret();
  });
});

describe('templates', () => {
  it('adds the bundled filesystem server in one click, for the folder given', async () => {
    await openRoute(page, '#/servers?tab=builtin', 'mcp-templates');
    await page.getByTestId('mcp-template-param-filesystem-folder').fill(home);
    await screenshot(page, 'mcp-07-templates');
    await page.getByTestId('mcp-template-add-filesystem').click();
    await expect.poll(() => page.getByTestId('mcp-template-add-filesystem').textContent()).toContain('Added');
    const entry = (await api<{ servers: { name: string; args: string[] }[] }>('mcpServers.list')).servers.find((s) => s.name === 'filesystem')!;
    expect(entry.args).toEqual([path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js'), home]);
    const tested = await api<{ ok: boolean; tools: { name: string }[] }>('mcpServers.test', { name: 'filesystem' });
    expect(tested.tools.map((t) => t.name)).toContain('list_directory');
  });
});

describe('the Prompts page', () => {
  it('adds a prompt with zh and en texts, grants it to an app, edits it and deletes it', async () => {
    await page.getByTestId('nav-prompts').click();
    await page.getByTestId('page-prompts').waitFor();
    await page.getByTestId('prompt-add').click();
    await page.getByTestId('prompt-name').fill('reviewer');
    await page.getByTestId('prompt-title').fill('Code reviewer');
    await page.getByTestId('prompt-zh').fill('请逐行审阅代码。');
    await page.getByTestId('prompt-en').fill('Review the code line by line.');
    await windowShot('mcp-08-prompt-add');
    await page.getByTestId('prompt-save').click();
    await page.getByTestId('prompt-editor').waitFor({ state: 'hidden' });
    await page.getByTestId('prompt-row-reviewer').waitFor();
    expect(await page.getByTestId('prompt-row-reviewer').textContent()).toContain('chatos::reviewer · chatos::reviewer__en');
    // One click opens the list of apps, one picks the app; the grant is stored at once.
    const granted = async () => (await api<{ prompts: { grantedTo: string[] }[] }>('prompts.list')).prompts[0]!.grantedTo;
    await page.getByTestId('prompt-grants-reviewer').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'aide' }).click();
    await expect.poll(granted).toEqual(['aide']);
    await page.getByTestId('page-prompts').locator('h3').click(); // closes the list
    const overview = await api<{ visible: Record<string, { prompts: string[] }> }>('registry.overview');
    expect(overview.visible.aide!.prompts).toEqual(expect.arrayContaining(['chatos::reviewer', 'chatos::reviewer__en']));

    await page.getByTestId('prompt-edit-reviewer').click();
    await page.getByTestId('prompt-en').fill('Review the code, then summarize.');
    await page.getByTestId('prompt-save').click();
    await page.getByTestId('prompt-editor').waitFor({ state: 'hidden' });
    await expect.poll(async () => (await api<{ prompts: { en?: string }[] }>('prompts.list')).prompts[0]!.en).toBe('Review the code, then summarize.');
    await screenshot(page, 'mcp-09-prompts-list');

    await page.getByTestId('prompt-remove-reviewer').click();
    await page.getByTestId('prompt-remove-ok').click();
    await page.getByTestId('prompt-row-reviewer').waitFor({ state: 'detached' });
    expect((await api<{ prompts: unknown[] }>('prompts.list')).prompts).toEqual([]);
    expect((await api<{ visible: Record<string, { prompts: string[] }> }>('registry.overview')).visible.aide!.prompts).not.toContain('chatos::reviewer');
  });
});

describe('in Chinese and in the dark theme', () => {
  it('the servers page, its editor, the import plan and the Prompts page', async () => {
    await page.getByTestId('locale-switch').click();
    await page.getByTestId('theme-switch').click();
    await openRoute(page, '#/servers?tab=external', 'mcp-add');
    await expect.poll(() => page.getByTestId('mcp-add').textContent()).toContain('添加服务器');
    await screenshot(page, 'mcp-10-servers-zh-dark');
    await page.getByTestId('mcp-edit-github').click();
    await page.getByTestId('mcp-form').waitFor();
    expect(await page.getByTestId('mcp-form').textContent()).toContain('保存为密钥');
    await pageHasNoSecret();
    await windowShot('mcp-11-editor-zh-dark');
    await closeEditor();
    await page.getByTestId('mcp-import-open').click();
    await page.getByTestId('mcp-import-text').fill(JSON.stringify({ servers: { web: { type: 'sse', url: 'http://127.0.0.1:1/sse' }, local: { type: 'stdio', command: 'node' } } }));
    await page.getByTestId('mcp-import-plan').click();
    await page.getByTestId('mcp-import-row-web').waitFor();
    expect(await page.getByTestId('mcp-import-row-web').textContent()).toContain('无法导入');
    await windowShot('mcp-12-import-zh-dark');
    await page.keyboard.press('Escape');
    await page.getByTestId('mcp-import').waitFor({ state: 'hidden' });
    await api('prompts.save', { create: true, prompt: { name: 'style', title: '写作风格', zh: '回答简洁，先给结论。', en: 'Answer briefly, conclusion first.' } });
    await page.getByTestId('nav-prompts').click();
    await page.getByTestId('prompt-row-style').waitFor();
    await expect.poll(() => page.getByTestId('page-prompts').textContent()).toContain('授权给');
    await screenshot(page, 'mcp-13-prompts-zh-dark');
  });
});
