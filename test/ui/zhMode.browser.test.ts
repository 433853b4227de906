import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chatServerEntry } from '../helpers/mcpYaml.js';
import { chooseOption, type launchChromium, openChromiumOn, openRoute, screenshot, screenshotOnFailure, type ServeProcess, startServe } from '../helpers/browser.js';
import { writeMcpYaml } from '../helpers/mcpYaml.js';
import { writePlugin } from '../helpers/plugins.js';
import { runCli } from '../helpers/runCli.js';

/**
 * The window in Chinese against a real `chatos serve` on a first start (no
 * model yet): the welcome says what to do next, an agent file with a
 * misspelled plugin id is explained where the user is (the Playground), a
 * confirmation and a declined call are said in Chinese. In each of these
 * places no English host message is left.
 */

let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;

/** Two English words in a row: a host sentence that was not translated (ids, codes and names are single tokens). */
const ENGLISH_PHRASE = /\b[A-Za-z]{2,}\s+[A-Za-z]{2,}\b/;

/** The text a person sees in `region`, minus the parts that are not the host's words (a tool's own description, ids). */
async function visibleText(region: Locator, skip: string[] = []): Promise<string> {
  return region.evaluate((element, skipped) => {
    const clone = element.cloneNode(true) as HTMLElement;
    for (const selector of skipped) for (const node of clone.querySelectorAll(selector)) node.remove();
    for (const node of clone.querySelectorAll('code, .ant-typography code, .problem-code, .problem-where')) node.remove();
    return clone.innerText;
  }, skip);
}

async function cli(args: string[]): Promise<void> {
  const run = await runCli([...args, '--home', home]);
  expect(run.code, `chatos ${args.join(' ')}: ${run.stderr}`).toBe(0);
}

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-zh-'));
  writeMcpYaml(home, { chat: chatServerEntry() });
  // An app that offers the chat server to agents (the way agents select mcp.yaml servers).
  const root = path.join(home, 'plugins-src');
  writePlugin(
    root,
    'desk',
    { manifestVersion: 1, id: 'com.example.desk', name: 'Desk', version: '1.0.0', apps: [{ id: 'desk', name: 'Desk', entry: 'index.mjs', ai: { mcpServers: ['chat'] } }] },
    { 'index.mjs': 'export function mount() {}\n' },
  );
  // Plugins with what a user gets wrong: a misspelled key and an empty app list, and a manifest that is not JSON.
  writePlugin(root, 'broken', { manifestVersion: 1, id: 'com.example.broken', name: 'Broken', version: '1.0.0', descripton: 'typo', apps: [] }, {});
  fs.mkdirSync(path.join(root, 'unparsable'));
  fs.writeFileSync(path.join(root, 'unparsable', 'plugin.json'), '{ "id": "com.example.unparsable", ');
  await cli(['roots', 'add', root]);
  await cli(['trust', 'com.example.desk']);
  for (const agent of [
    { id: 'helper', name: '助手', uiApps: [{ pluginId: 'com.example.desk', appId: 'desk', mcp: true, mcpServerIds: ['chatos::chat'] }] },
    // The plugin id misspelled: saved with a warning only.
    { id: 'typo', name: '拼错', uiApps: [{ pluginId: 'com.example.dsek', appId: 'desk', mcp: true }] },
  ]) {
    const file = path.join(home, `${agent.id}.json`);
    fs.writeFileSync(file, JSON.stringify(agent));
    await cli(['agents', 'create', '--file', file]);
  }
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'zh_CN.UTF-8' });
  ({ chromium, page } = await openChromiumOn(serve, { height: 900, beforeLoad: (p) => p.addInitScript(() => localStorage.setItem('chatos.locale', 'zh')) }));
});

afterEach((context) => screenshotOnFailure(page, 'zh', context));

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  fs.rmSync(home, { recursive: true, force: true });
});

const open = (route: string, root: string) => openRoute(page, route, root);

describe('the window in Chinese', () => {
  it('welcomes a first start where the window opens (Chat) with what to do next, until there is a model', async () => {
    const welcome = page.getByTestId('welcome');
    await welcome.waitFor({ timeout: 20_000 });
    const text = await visibleText(welcome);
    expect(text).toContain('欢迎使用 ChatOS');
    expect(text).toContain('添加模型');
    expect(text).not.toMatch(ENGLISH_PHRASE);
    // Install is on the Apps page: the Chat page's welcome says so and leads there, where it is "above".
    expect(text).toContain('在“应用”页用“安装”添加');
    expect(text).not.toContain('用上方的“安装”');
    await screenshot(page, 'zh-01-welcome');
    await page.getByTestId('welcome-apps').click();
    await page.getByTestId('page-apps').waitFor({ timeout: 20_000 });
    expect(await visibleText(page.getByTestId('welcome'))).toContain('用上方的“安装”添加');
    await page.getByTestId('welcome-add-model').click();
    await page.getByTestId('page-models').waitFor({ timeout: 20_000 });
  });

  it("says a plugin's problems in Chinese on the Apps page, with the Problems page never opened", async () => {
    await page.reload();
    await open('#/apps', 'page-apps');
    const problems = page.getByTestId('problems-plugin-com.example.broken');
    await problems.waitFor({ timeout: 20_000 });
    // The codes' texts load with the first code shown, on any page.
    await expect.poll(() => visibleText(problems), { timeout: 20_000 }).toContain('不认识的字段');
    expect(await visibleText(problems)).not.toMatch(ENGLISH_PHRASE);
  });

  it('says in the Playground that the agent names an app that is not installed, in Chinese, with the way to fix it', async () => {
    await open('#/playground', 'page-playground');
    await chooseOption(page, page.getByTestId('playground-agent'), 'typo');
    const alert = page.getByTestId('playground-agent-problem');
    await alert.waitFor({ timeout: 20_000 });
    const text = await visibleText(alert);
    expect(text).toContain('插件 ID 可能拼错了');
    expect(text).toContain('在智能体编辑器中改正插件 ID');
    expect(text).not.toMatch(ENGLISH_PHRASE);
    // The host's own words (with the id it suggests) are one click away.
    await alert.getByTestId('host-original').first().click();
    expect(await alert.textContent()).toContain('"com.example.dsek" is not installed');
    await screenshot(page, 'zh-02-agent-problem');
  });

  it('says every problem on the Problems page in Chinese, light and dark, at 1280 and 1440 wide', async () => {
    for (const [theme, width, height] of [
      ['light', 1280, 800],
      ['dark', 1440, 900],
    ] as const) {
      await page.evaluate((mode) => localStorage.setItem('chatos.theme', mode), theme);
      await page.emulateMedia({ colorScheme: theme });
      await page.setViewportSize({ width, height });
      await page.reload();
      await open('#/problems', 'page-problems');
      const list = page.getByTestId('problem-list-plugins');
      await list.waitFor({ timeout: 20_000 });
      // The codes' texts load with the page: each problem is said in Chinese once they are in, with no English sentence left.
      await expect.poll(() => visibleText(page.getByTestId('page-problems')), { timeout: 20_000 }).toContain('语法有错');
      const text = await visibleText(page.getByTestId('page-problems'));
      expect(text).toContain('不认识的字段');
      expect(text).toContain('太短或太小');
      expect(text).not.toMatch(ENGLISH_PHRASE);
      await screenshot(page, `zh-05-problems-${theme}-${width}`);
    }
    await page.evaluate(() => localStorage.setItem('chatos.theme', 'light'));
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1360, height: 900 });
    await page.reload();
    // Where the next test goes on from.
    await open('#/playground', 'page-playground');
  });

  it('asks for a confirmation and reports a declined call in Chinese', async () => {
    await chooseOption(page, page.getByTestId('playground-agent'), 'helper');
    await page.getByTestId('tool-row-mcp_chat_danger').click({ timeout: 20_000 });
    await page.getByTestId('args-tab-raw').click();
    await page.getByTestId('args-raw').fill(JSON.stringify({ what: 'the old notes' }));
    await page.getByTestId('tool-call').click();
    const card = page
      .locator('[data-testid^="confirmation-"]')
      .filter({ has: page.getByTestId('confirm-approve') })
      .first();
    await card.getByTestId('confirm-approve').waitFor({ timeout: 20_000 });
    expect(await card.getByTestId('confirm-summary').textContent()).toBe('在 chatos::chat 上运行 mcp_chat_danger');
    // The tool's description is the server's own text (English here); the arguments are a list.
    expect(await card.getByTestId('confirm-description').textContent()).toBe('Destructive: asks for confirmation.');
    expect(await card.getByTestId('confirm-args').textContent()).toBe('whatthe old notes');
    expect(await visibleText(card, ['[data-testid="confirm-description"]', '[data-testid="confirm-args"]'])).not.toMatch(ENGLISH_PHRASE);
    await screenshot(page, 'zh-03-confirmation');
    await card.getByTestId('confirm-decline').click();
    const result = page.getByTestId('tool-result');
    await result.waitFor({ timeout: 20_000 });
    expect(await result.getByTestId('result-not-run').textContent()).toBe('你拒绝了这次调用；工具没有运行。');
    expect(await result.getByTestId('result-error').count()).toBe(0);
    expect(await visibleText(result)).not.toMatch(ENGLISH_PHRASE);
    await screenshot(page, 'zh-04-declined');
  });
});
