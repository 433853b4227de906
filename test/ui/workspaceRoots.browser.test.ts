import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type launchChromium, openChromiumOn, openRoute, screenshot, screenshotOnFailure, serveApi, type ServeProcess, startServe } from '../helpers/browser.js';
import { EVERYTHING_SERVER, writeMcpYaml } from '../helpers/mcpYaml.js';
import { runCli } from '../helpers/runCli.js';

/**
 * Workspace roots in Chromium against a real `chatos serve` and the MCP
 * project's reference server over stdio: its get-roots-list tool, called in
 * the Playground, says what the server was answered to roots/list. The
 * agent's folders set in the agent editor, and the Playground
 * conversation's own set from its Folders button, each reach the running
 * server (it is told they changed and asks again).
 * Screenshots: test-output/screenshots/roots-*.
 */

const ROOTS_TOOL = 'mcp_everything_get-roots-list';

let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;
const folders: string[] = [];
const folder = (prefix: string) => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  folders.push(dir);
  return dir;
};
let first: string;
let second: string;
let own: string;

const uri = (dir: string) => pathToFileURL(dir).href;
const result = () => page.getByTestId('playground-tool').getByTestId('tool-result');

/** Calls the roots tool in the Playground until its answer names `expected` (the server asks again once told): fails after 20 s. */
async function serverSays(expected: string, absent?: string): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.getByTestId('tool-call').click();
        await result().waitFor({ timeout: 20_000 });
        const text = (await result().textContent()) ?? '';
        return text.includes(expected) && (absent === undefined || !text.includes(absent));
      },
      { timeout: 20_000, intervals: [200] },
    )
    .toBe(true);
}

beforeAll(async () => {
  home = folder('chatos-ui-roots-');
  [first, second, own] = [folder('chatos-root-first-'), folder('chatos-root-second-'), folder('chatos-root-own-')];
  writeMcpYaml(home, { everything: { transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } });
  const file = path.join(home, 'coder.json');
  fs.writeFileSync(file, JSON.stringify({ id: 'coder', name: 'Coder', uiApps: [{ pluginId: 'chatos', appId: 'chatos', mcp: true, mcpServerIds: ['chatos::everything'] }], roots: [first] }));
  const run = await runCli(['agents', 'create', '--file', file, '--home', home]);
  expect(run.code, run.stderr).toBe(0);
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  ({ chromium, page } = await openChromiumOn(serve, { height: 1000 }));
});

afterEach((context) => screenshotOnFailure(page, 'roots', context));

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

describe('workspace roots', () => {
  it("set on the agent in its editor, the running server's answer changes; a Playground conversation's own folders win", async () => {
    await openRoute(page, '#/playground', 'page-playground');
    await page.getByTestId(`tool-row-${ROOTS_TOOL}`).click({ timeout: 30_000 });
    await serverSays(uri(first));
    expect(await page.getByTestId('workspace-roots-button').textContent()).toContain('Folders 1');

    // The agent's editor: a second folder, and a bad one refused under the field first.
    await openRoute(page, '#/agents', 'page-agents');
    // An agent opened to edit shows its tools section, where the folders are.
    await page.getByTestId('agent-edit-coder').click();
    const input = page.getByTestId('agent-roots');
    expect(await input.inputValue()).toBe(first);
    await input.fill(`${first}\n${path.join(second, 'missing')}`);
    await page.getByTestId('agent-save').click();
    await expect
      .poll(() => page.getByTestId('agent-editor').locator('.ant-form-item-explain-error').allTextContents(), { timeout: 20_000 })
      .toContain(`${path.join(second, 'missing')} does not exist; create the folder or remove it from the list`);
    await input.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'roots-01-agent-editor-refused');
    await input.fill(`${first}\n${second}`);
    await input.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'roots-02-agent-editor');
    await page.getByTestId('agent-save').click();
    await page.getByTestId('agent-editor').waitFor({ state: 'hidden', timeout: 20_000 });

    // The same Playground conversation: its server was told, asked again, and names both.
    await openRoute(page, '#/playground', 'page-playground');
    await page.getByTestId(`tool-row-${ROOTS_TOOL}`).click({ timeout: 30_000 });
    await serverSays(uri(second));
    expect(await result().textContent()).toContain(`Current MCP Roots (2 total)`);
    await screenshot(page, 'roots-03-playground-agent-folders');

    // The conversation's own folders, from its Folders button.
    await page.getByTestId('workspace-roots-button').click();
    const panel = page.getByTestId('workspace-roots-panel');
    await panel.waitFor();
    expect(await panel.textContent()).toContain("It uses the agent's folders.");
    await panel.getByTestId('workspace-roots-input').fill(own);
    await screenshot(page, 'roots-04-playground-own-folders');
    await panel.getByTestId('workspace-roots-save').click();
    await panel.waitFor({ state: 'hidden' });
    await serverSays(uri(own), uri(first));
    expect(await page.getByTestId('workspace-roots-button').textContent()).toContain('Folders 1');
    await screenshot(page, 'roots-05-playground-own-answer');
  });

  it("a chat conversation's own folders from the Folders button in its header, kept with the conversation", async () => {
    const api = serveApi(serve);
    const { conversation } = await api<{ conversation: { id: string } }>('conversations.create', { agentId: 'coder', title: 'Folders' });
    await openRoute(page, '#/chat', 'page-chat');
    await page.getByTestId(`conversation-${conversation.id}`).click();
    const pane = page.locator(`[data-testid="chat-pane"][data-conversation="${conversation.id}"]`);
    await pane.waitFor();
    const button = pane.getByTestId('workspace-roots-button');
    await expect.poll(() => button.textContent(), { timeout: 20_000 }).toContain('Folders 2');
    await button.click();
    const panel = page.getByTestId('workspace-roots-panel');
    await panel.waitFor();
    expect(await panel.getByTestId('workspace-roots-input').inputValue()).toBe(`${first}\n${second}`);
    // A folder that is not there is refused in the panel, saying which.
    await panel.getByTestId('workspace-roots-input').fill(`${own}\n${path.join(own, 'gone')}`);
    await panel.getByTestId('workspace-roots-save').click();
    await expect.poll(() => panel.getByTestId('workspace-roots-error').textContent(), { timeout: 20_000 }).toContain(`${path.join(own, 'gone')} does not exist`);
    await screenshot(page, 'roots-06-chat-refused');
    await panel.getByTestId('workspace-roots-input').fill(own);
    await panel.getByTestId('workspace-roots-save').click();
    await panel.waitFor({ state: 'hidden' });
    await expect.poll(() => button.textContent(), { timeout: 20_000 }).toContain('Folders 1');
    expect(await api('conversations.roots', { conversationId: conversation.id })).toEqual({ roots: [own], own: true });
    const listed = await api<{ conversations: { id: string; roots?: string[] }[] }>('conversations.list', {});
    expect(listed.conversations.find((c) => c.id === conversation.id)?.roots).toEqual([own]);
    await screenshot(page, 'roots-07-chat-header');
  });
});
