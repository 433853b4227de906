import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, pageReady, screenshot, serveApi, startServe, type ServeProcess } from '../helpers/browser.js';
import { runCli } from '../helpers/runCli.js';

/**
 * The Canvas (docs/rules/canvas.md) end to end: `chatos serve` (the built binary) with
 * the real built-in plugin, its page in Debian's Chromium. An agent's patch
 * (through the API, and a `chatos call` from another process) shows on the
 * open page without a reload; the user's input goes back through
 * patch_ui_state and shows in the history. Screenshots (light and dark, en
 * and zh) go to test-output/screenshots/canvas-*.png.
 */

const SERVER = 'chatos.canvas::chatos.canvas.canvas';
const PATCH = 'mcp_chatos_canvas_canvas_patch_ui_state';
const AGENT = 'ui-builder';

let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;

/** The HostApi as the renderer calls it. */
const api = <T = any>(method: string, params: Record<string, unknown> = {}) => serveApi(serve)<T>(method, params);

/** A call as the agent makes it in a conversation: through the gateway, audited. */
const agentPatch = (args: Record<string, unknown>) => api('tools.call', { agentId: AGENT, flow: 'main', conversationId: 'conv-canvas', tool: PATCH, args });

async function openCanvas(): Promise<FrameLocator> {
  await page.evaluate(() => (window.location.hash = '#/apps/chatos.canvas/canvas'));
  await pageReady(page, '#/apps/chatos.canvas/canvas');
  await page.getByTestId('page-uiapp').waitFor({ state: 'visible', timeout: 20_000 });
  const frame = page.frameLocator('.uiapp-split-main [data-testid="uiapp-frame"]');
  await frame.getByTestId('canvas-view').waitFor({ timeout: 20_000 });
  return frame;
}

/** Waits until the frame's layout settles (fonts, the shell's spinner) so a screenshot shows what a person sees. */
async function settle(frame: FrameLocator): Promise<void> {
  await page.locator('.uiapp-split-main [data-testid="uiapp-frame"][data-status="ready"]').waitFor({ timeout: 20_000 });
  await frame.locator('body').evaluate(() => document.fonts.ready.then(() => undefined));
  // No tooltip of the header's switches over the picture.
  await page.mouse.move(700, 880);
  await expect.poll(() => page.locator('.ant-tooltip:visible').count()).toBe(0);
  // Nothing half-way through a transition (a theme switch fades the menu's colours, a tooltip fades out).
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
  await frame.locator('body').evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
}

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'chatos-canvas-home-'));
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  chromium = await launchChromium();
  page = await chromium.context.newPage();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(serve.url);
  await api('agents.save', { agent: { id: AGENT, name: 'UI builder', uiApps: [{ pluginId: 'chatos.canvas', appId: 'canvas', mcp: true, mcpServerIds: [SERVER] }] } });
}, 120_000);

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  fs.rmSync(home, { recursive: true, force: true });
});

describe('the Canvas page in Chromium against chatos serve', () => {
  it("shows an agent's patches live: a block added through the API, an instance a CLI call created in another process", async () => {
    const frame = await openCanvas();
    await expect.poll(() => frame.getByTestId('canvas-view').getAttribute('data-instance')).toBe('demo');
    await frame.getByTestId('canvas-field-name').waitFor();

    const added = await agentPatch({
      instance_id: 'demo',
      patches: [
        {
          op: 'add',
          path: 'blocks+',
          value: { id: 'new_block', type: 'form', bind: 'state.params', props: { title: 'Added by the agent', fields: [{ label: 'Field', key: 'field1', type: 'text' }] } },
        },
      ],
    });
    expect(added.isError).toBe(false);
    // No reload: the field the agent added appears in the page that is open.
    await frame.getByTestId('canvas-field-field1').waitFor({ timeout: 10_000 });
    await expect.poll(() => frame.getByTestId('canvas-view').getAttribute('data-revision')).toBe(String(added.structuredContent.revision));

    // Another process (the CLI, with its own host and its own server instance) creates an instance: the page hears of it through its backend.
    const cli = await runCli(['call', PATCH, '--app', 'chatos', '--home', home, '--args', JSON.stringify({ instance_id: '__CREATE__', new_instance_id: 'from_cli', patches: [] }), '--json']);
    expect(cli.code, cli.stderr).toBe(0);
    await frame.getByTestId('canvas-instance-from_cli').waitFor({ timeout: 15_000 });

    await settle(frame);
    await screenshot(page, 'canvas-01-live-light-en');
  });

  it('sends what the user entered through patch_ui_state on an action click, and the history says who sent what', async () => {
    const frame = await openCanvas();
    await frame.getByTestId('canvas-instance-demo').click();
    await frame.getByTestId('canvas-field-name').fill('Ada Lovelace');
    await frame.getByTestId('canvas-field-age').fill('36');
    await frame.getByTestId('canvas-field-color').selectOption('green');
    await frame.getByTestId('canvas-field-subscribe').check();
    // The optimistic update: shown as the user's, not yet sent.
    await expect.poll(() => frame.getByTestId('canvas-unsaved').textContent()).toMatch(/4 unsaved changes/);
    expect((await api('uiApps.callTool', { pluginId: 'chatos.canvas', appId: 'canvas', tool: 'get_schema', args: {} })).structuredContent.schema.state.params.name).toBe('');

    await frame.getByTestId('canvas-action-submit').click();
    await expect.poll(() => frame.getByTestId('canvas-status').first().textContent(), { timeout: 10_000 }).toBe('Submitted');
    const stored = (await api('uiApps.callTool', { pluginId: 'chatos.canvas', appId: 'canvas', tool: 'get_schema', args: { instance_id: 'demo' } })).structuredContent.schema;
    expect(stored.state.params).toMatchObject({ name: 'Ada Lovelace', age: 36, color: 'green', subscribe: true });
    expect(stored.state.runtime.last_action).toBe('submit');
    expect(stored.meta.status).toBe('submitted');

    // The history: the page's own write on top, the agent's patch below it, each with its result.
    const items = frame.getByTestId('canvas-history-item');
    await expect.poll(() => items.first().getAttribute('data-caller')).toBe('page');
    expect(await items.first().getByTestId('canvas-history-result').textContent()).toMatch(/✓ rev \d+/);
    // The page's own call names no conversation: the one the host runs a page's calls in means nothing to the user.
    expect(await items.first().getByTestId('canvas-history-who').getAttribute('title')).toBeNull();
    expect(await items.first().textContent()).not.toContain('Conversation');
    const agentItem = frame.locator('[data-testid="canvas-history-item"][data-caller="agent"]').first();
    expect(await agentItem.getByTestId('canvas-history-who').textContent()).toBe(`Agent ${AGENT}`);
    expect(await agentItem.getByTestId('canvas-history-who').getAttribute('title')).toBe('Conversation conv-canvas');

    // The page's write went through the gateway: audited as the app's own call.
    const audit = await api<{ records: { tool: string; appId: string }[] }>('audit.list', { limit: 20 });
    expect(audit.records.some((r) => r.tool === PATCH && r.appId === 'chatos.canvas')).toBe(true);

    // A refused patch shows in the history with its code.
    await agentPatch({ instance_id: 'demo', patches: [{ op: 'set', path: 'meta.status', value: 'done' }] });
    await expect.poll(() => items.first().getByTestId('canvas-history-result').textContent()).toBe('INVALID_STRUCTURE');
    await settle(frame);
    await screenshot(page, 'canvas-02-submitted-light-en');
  });

  it('keeps what the user is typing when an agent changes the instance meanwhile', async () => {
    const frame = await openCanvas();
    await frame.getByTestId('canvas-instance-demo').click();
    const bio = frame.getByTestId('canvas-field-bio');
    await bio.fill('half a thought');
    const before = await frame.getByTestId('canvas-view').getAttribute('data-revision');
    await agentPatch({ instance_id: 'demo', patches: [{ op: 'set', path: 'meta.step', value: { current: 2, total: 3 } }] });
    await expect.poll(() => frame.getByTestId('canvas-view').getAttribute('data-revision')).not.toBe(before);
    expect(await frame.getByTestId('canvas-field-bio').inputValue()).toBe('half a thought');
    // Asked of the document, not of a field handle: a later re-render may replace the element between the two.
    expect(await frame.locator('body').evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('canvas-field-bio');
    await frame.getByTestId('canvas-step').waitFor();
  });

  it('looks right in dark, in Chinese, and in the side panel', async () => {
    const frame = await openCanvas();
    await page.getByTestId('theme-switch').click();
    await expect.poll(() => frame.locator('html').getAttribute('data-theme')).toBe('dark');
    await settle(frame);
    await screenshot(page, 'canvas-03-dark-en');

    await page.getByTestId('open-compact-chatos.canvas-canvas').click();
    const compact = page.frameLocator('[data-testid="compact-panel"] [data-testid="uiapp-frame"]');
    await compact.getByTestId('canvas-instance-from_cli').waitFor({ timeout: 20_000 });
    // A click in the side panel shows that instance in the full page.
    await compact.getByTestId('canvas-instance-from_cli').click();
    await expect.poll(() => frame.getByTestId('canvas-view').getAttribute('data-instance')).toBe('from_cli');
    await compact.getByTestId('canvas-last-change').waitFor();
    await screenshot(page, 'canvas-04-compact-dark-en');
    await page.getByTestId('compact-panel').getByRole('button').first().click();

    await page.getByTestId('locale-switch').click();
    // A page reads the language when it is mounted: the frame shows Chinese once it is opened again.
    await page.reload();
    const zh = await openCanvas();
    await zh.getByTestId('canvas-instance-demo').click();
    await expect.poll(() => zh.getByTestId('canvas-app').textContent()).toMatch(/实例/);
    // Counts in Chinese words, not "2 个 block".
    expect(await zh.getByTestId('canvas-instance-demo').textContent()).toMatch(/2 个区块 · 1 个操作/);
    await settle(zh);
    await screenshot(page, 'canvas-05-dark-zh');
    await page.getByTestId('theme-switch').click();
    await expect.poll(() => zh.locator('html').getAttribute('data-theme')).toBe('light');
    await settle(zh);
    await screenshot(page, 'canvas-06-light-zh');
  });
});
