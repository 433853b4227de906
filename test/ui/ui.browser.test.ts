import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openRoute, pageReady, screenshot, serveApi, type ServeProcess, startServe } from '../helpers/browser.js';

/**
 * The UI end to end: `chatos serve` (the built binary) on a temp data home
 * with the real built-in plugins (Notes: its own MCP server, a confirm-level
 * tool, an image tool, a page and a backend) plus a broken plugin, driven by
 * Debian's Chromium. Each step checks the outcome in the host too (through
 * the API), not only on screen. Screenshots go to test-output/screenshots/.
 */

const NOTES_SERVER = 'chatos.notes::chatos.notes.notes';
const AGENT_ID = 'note-keeper';

let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;
let extra: string;

/** The HostApi as the renderer calls it: the token as a bearer header. */
const api = <T = any>(method: string, params: Record<string, unknown> = {}) => serveApi(serve)<T>(method, params);

const open = (route: string, root: string) => openRoute(page, route, root);

/** Picks an option of an antd Select by typing part of its label; `done` is clicked after, to close a multiple select's list (Escape would close a drawer). */
async function choose(testId: string, text: string, done?: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.keyboard.type(text);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first().click();
  if (done) await page.getByTestId(done).click();
  // Wait until the list has closed: it animates, and a click meanwhile can land on a shifting layout.
  await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'detached' });
}

/** In the page: whether the tabs' ink bar (under `root`) sits under the active tab, centred on it. */
function inkBarUnderActiveTab(root: Element): boolean {
  const ink = root.querySelector('.ant-tabs-ink-bar')?.getBoundingClientRect();
  const tab = root.querySelector('.ant-tabs-tab-active')?.getBoundingClientRect();
  return !!ink && !!tab && ink.width > 0 && Math.abs(ink.left + ink.width / 2 - (tab.left + tab.width / 2)) < 1;
}

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'chatos-ui-home-'));
  extra = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'chatos-ui-plugins-'));
  // A plugin with a broken manifest: the host still starts, and the UI shows the problem with its file and fix.
  fs.mkdirSync(path.join(extra, 'broken'));
  fs.writeFileSync(path.join(extra, 'broken', 'plugin.json'), JSON.stringify({ manifestVersion: 1, id: 'acme.broken', name: 'Broken', version: '1.0.0', apps: [] }));
  // An untrusted plugin whose server gets NODE_OPTIONS: the trust panel must show it, with a warning, before anyone trusts it.
  fs.mkdirSync(path.join(extra, 'preload'));
  fs.writeFileSync(path.join(extra, 'preload', 'index.mjs'), 'export function mount() {}\n');
  fs.writeFileSync(path.join(extra, 'preload', 'server.mjs'), '// server\n');
  fs.writeFileSync(
    path.join(extra, 'preload', 'plugin.json'),
    JSON.stringify({
      manifestVersion: 1,
      id: 'acme.preload',
      name: 'Preload',
      version: '1.0.0',
      apps: [{ id: 'main', name: 'Main', entry: 'index.mjs', ai: { mcp: { entry: 'server.mjs', env: { NODE_OPTIONS: '--require /tmp/evil.cjs' } } } }],
    }),
  );
  serve = await startServe(['--home', home, '--plugins', extra, '--no-watch'], { LANG: 'en_US.UTF-8' });
  chromium = await launchChromium();
  page = await chromium.context.newPage();
  await page.emulateMedia({ colorScheme: 'light' });
}, 120_000);

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(extra, { recursive: true, force: true });
});

describe('the UI in Chromium against chatos serve', () => {
  it('loads only with the token', async () => {
    const bare = await page.goto(`${serve.origin}/`);
    expect(bare?.status()).toBe(401);
    expect(await page.content()).not.toContain('<script');
    const wrong = await page.goto(`${serve.origin}/?token=${'A'.repeat(serve.token.length)}`);
    expect(wrong?.status()).toBe(401);
    await page.goto(serve.url);
    // The root opens Chat, where a person starts (issue 45), not the Apps page.
    await page.getByTestId('page-chat').waitFor({ state: 'visible' });
    await pageReady(page, '/chat');
    expect(new URL(page.url()).hash).toBe('#/chat');
    // The token left the address bar (the server moved it into an HttpOnly cookie).
    expect(page.url()).not.toContain(serve.token);
    await open('#/apps', 'page-apps');
    await page.getByTestId('app-chatos.notes-notes').waitFor();
    await screenshot(page, '01-apps');
  });

  it('marks a page ready only once the answer it shows is in, also when a list was asked again during its first load', async () => {
    await page.goto(serve.url);
    await openRoute(page, '#/agents', 'page-agents');
    // The Apps page's first list is held until the host said the plugins changed (a rescan) and the page asked again;
    // then the first answer comes while the second is held: it is dropped, so the page shows nothing yet and is not ready.
    const lists: Route[] = [];
    let asked!: () => void;
    const secondAsked = new Promise<void>((resolve) => (asked = resolve));
    await page.route('**/api', (route) => {
      if (route.request().postDataJSON()?.method !== 'apps.list' || lists.length === 2) return route.continue();
      lists.push(route);
      if (lists.length === 2) asked();
    });
    const readyWithSkeleton: boolean[] = [];
    await page.exposeFunction('__readyMarked', (skeleton: boolean) => readyWithSkeleton.push(skeleton));
    await page.evaluate(() => {
      new MutationObserver(() => {
        if (document.documentElement.dataset.pageReady === '/apps') (window as any).__readyMarked(document.querySelector('[data-testid="page-apps"] .ant-skeleton') !== null);
      }).observe(document.documentElement, { attributes: true, attributeFilter: ['data-page-ready'] });
      window.location.hash = '#/apps';
    });
    await expect.poll(() => lists.length).toBe(1);
    await api('apps.rescan');
    await secondAsked;
    await lists[0]!.continue();
    await page.waitForResponse((response) => response.request() === lists[0]!.request());
    // The first answer is in the page (its handlers ran within these frames) while the second is still held.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await lists[1]!.continue();
    await pageReady(page, '#/apps');
    await page.unroute('**/api');
    expect(readyWithSkeleton.length).toBeGreaterThan(0);
    expect(readyWithSkeleton, 'ready while the list was still a skeleton').not.toContain(true);
  });

  it('shows a broken plugin with its problem on the Apps and Problems pages', async () => {
    const card = page.getByTestId('plugin-acme.broken');
    await expect.poll(() => card.textContent()).toContain('at least 1 item');
    await open('#/problems', 'page-problems');
    await expect.poll(() => page.getByTestId('page-problems').textContent()).toContain('at least 1 item');
    await screenshot(page, '02-problems');
  });

  it("shows what trusting a plugin would run, its server's environment included, with a warning for NODE_OPTIONS", async () => {
    await open('#/apps', 'page-apps');
    const block = page.getByTestId('trust-block-acme.preload');
    await block.waitFor();
    await expect.poll(() => block.getByTestId('run-plan-env').textContent()).toContain('NODE_OPTIONS=--require /tmp/evil.cjs');
    expect(await block.getByTestId('run-plan-env').textContent()).toContain('from the host: HOME');
    await expect.poll(() => block.getByTestId('run-plan-warnings').textContent()).toContain('changes which code runs');
    // The confirmation shows it again, next to the button that trusts.
    await page.getByTestId('trust-acme.preload').click();
    await expect.poll(() => page.locator('.ant-popover:visible').textContent()).toContain('NODE_OPTIONS=--require /tmp/evil.cjs');
    await screenshot(page, '02b-trust-warning');
    await page.locator('.ant-popover:visible').getByRole('button', { name: 'Cancel' }).click();
    const { plugins } = await api<{ plugins: { id?: string; trust: { state: string } }[] }>('apps.list');
    expect(plugins.find((p) => p.id === 'acme.preload')?.trust.state).toBe('untrusted');
  });

  it("creates an agent that selects a plugin app's MCP server, with the live preview", async () => {
    await open('#/agents', 'page-agents');
    await page.getByTestId('agent-new').click();
    await page.getByTestId('agent-name').fill('Note keeper');
    // A new agent's form shows name, model and instructions; the id and the apps are in their sections.
    await page.getByTestId('agent-section-advanced').click();
    await page.getByTestId('agent-id').fill(AGENT_ID);
    await page.getByTestId('agent-section-tools').click();
    await choose('agent-apps-select', 'Notes', 'agent-name');
    // Choosing an app switches its MCP on with its own server picked (way A); the select shows it.
    expect(await page.getByTestId('agent-app-chatos.notes-notes-mcp').getAttribute('aria-checked')).toBe('true');
    await expect.poll(() => page.getByTestId('agent-app-chatos.notes-notes-servers').textContent()).toContain(NOTES_SERVER);
    // The preview lists the tools this agent gets in the main flow, live, before saving.
    await expect.poll(() => page.getByTestId('agent-preview-main').textContent(), { timeout: 20_000 }).toContain('mcp_chatos_notes_notes_add_note');
    await screenshot(page, '03-agent-editor');
    await page.getByTestId('agent-save').click();
    await page.getByTestId(`agent-row-${AGENT_ID}`).waitFor();
    const { agents } = await api<{ agents: { id: string; uiApps: { mcp: boolean; mcpServerIds: string[] }[] }[] }>('agents.list');
    expect(agents.find((a) => a.id === AGENT_ID)?.uiApps).toEqual([expect.objectContaining({ mcp: true, mcpServerIds: [NOTES_SERVER] })]);
    await screenshot(page, '04-agents');
  });

  it('grants and revokes with a click, and the registry changes', async () => {
    await open('#/registry', 'page-registry');
    const grantedToAide = async () => ((await api<{ visible: Record<string, { servers: string[] }> }>('registry.overview')).visible.aide?.servers ?? []).includes(NOTES_SERVER);
    expect(await grantedToAide()).toBe(false);
    const toggle = page.getByTestId(`grant-aide-${NOTES_SERVER}`);
    await toggle.click();
    await expect.poll(grantedToAide).toBe(true);
    await screenshot(page, '05-registry-granted');
    await toggle.click();
    await expect.poll(grantedToAide).toBe(false);
  });

  it('calls a confirm-level tool and approves it inline, then shows an image result', async () => {
    const added = await api<{ content: { type: string; text?: string }[] }>('uiApps.callTool', { pluginId: 'chatos.notes', appId: 'notes', tool: 'add_note', args: { title: 'to delete', text: '' } });
    const noteId = /added note (\S+)/.exec(added.content[0]?.text ?? '')?.[1];
    expect(noteId).toBeTruthy();

    await open('#/playground', 'page-playground');
    await choose('playground-agent', 'Note keeper');
    await page.getByTestId('tool-row-mcp_chatos_notes_notes_delete_note').click();
    await page.getByTestId('args-tab-raw').click();
    await page.getByTestId('args-raw').fill(JSON.stringify({ id: noteId }));
    await page.getByTestId('tool-call').click();
    // The confirmation appears where the call is, with its countdown; nothing ran yet.
    await page.getByTestId('confirm-approve').waitFor({ state: 'visible', timeout: 20_000 });
    await expect.poll(() => page.getByTestId('confirm-countdown').textContent()).toMatch(/\d/);
    const before = await api<{ structuredContent: { notes: { id: string }[] } }>('uiApps.callTool', { pluginId: 'chatos.notes', appId: 'notes', tool: 'list_notes', args: {} });
    expect(before.structuredContent.notes.map((n) => n.id)).toContain(noteId);
    await screenshot(page, '06-playground-confirmation');
    await page.getByTestId('confirm-approve').click();
    await expect.poll(() => page.getByTestId('tool-result').textContent(), { timeout: 20_000 }).toContain(`deleted note ${noteId}`);
    await expect.poll(() => page.getByTestId('result-decision').textContent()).toMatch(/approved/i);

    await page.getByTestId('tool-row-mcp_chatos_notes_notes_color_swatch').click();
    await page.getByTestId('args-tab-raw').click();
    await page.getByTestId('args-raw').fill(JSON.stringify({ color: '#3366cc', size: 48 }));
    await page.getByTestId('tool-call').click();
    const image = page.getByTestId('result-image');
    await image.waitFor({ state: 'visible', timeout: 20_000 });
    // Loaded from the artifacts folder: a real 48×48 PNG, not a broken image.
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(48);
    await screenshot(page, '07-playground-image');
  });

  it("runs the Notes page in its sandboxed frame, through the bridge and the plugin's backend", async () => {
    await open('#/apps/chatos.notes/notes', 'page-uiapp');
    const frame = page.frameLocator('[data-testid="uiapp-frame"]');
    await frame.getByTestId('notes-input').fill('written in the frame');
    await frame.getByTestId('notes-add').click();
    await expect.poll(() => frame.getByTestId('notes-list').textContent(), { timeout: 20_000 }).toContain('written in the frame');
    // The stats line comes from the plugin's backend process.
    const { structuredContent } = await api<{ structuredContent: { notes: unknown[] } }>('uiApps.callTool', { pluginId: 'chatos.notes', appId: 'notes', tool: 'list_notes', args: {} });
    await expect.poll(() => frame.getByTestId('notes-stats').textContent(), { timeout: 20_000 }).toContain(`${structuredContent.notes.length} note`);
    // The frame has an opaque origin: it cannot read the host's API.
    const origin = await frame.locator('body').evaluate(() => self.origin);
    expect(origin).toBe('null');
    await screenshot(page, '08-notes-page');
  });

  it('shows the MCP servers with their state, switches one off and on, and shows every page in Chinese', async () => {
    await open('#/servers', 'page-servers');
    await page.getByTestId(`server-row-${NOTES_SERVER}`).waitFor();
    await expect.poll(() => page.getByTestId(`server-row-${NOTES_SERVER}`).textContent()).toMatch(/running/i);
    // What its process costs, measured by the host (issue 28 item 7): a Node server holds tens of MB.
    await expect.poll(async () => Number(/([\d.]+) MB of memory/.exec((await page.getByTestId(`server-memory-${NOTES_SERVER}`).textContent()) ?? '')?.[1])).toBeGreaterThan(10);
    await screenshot(page, '09-servers');
    // Switching the whole server off ends its instance and is stored; switching it on again restores it.
    const switchedOff = async () => (await api<{ servers: { id: string; switchedOff: boolean; leases: unknown[] }[] }>('servers.list')).servers.find((sv) => sv.id === NOTES_SERVER)!;
    const onOff = page.getByTestId(`server-enabled-${NOTES_SERVER}`);
    // Each click once the switch shows the state before it and is not saving: a click while it saves is ignored.
    const settled = (checked: boolean) => page.locator(`[data-testid="server-enabled-${NOTES_SERVER}"][aria-checked="${checked}"]:not(.ant-switch-loading)`).waitFor({ timeout: 20_000 });
    await settled(true);
    await onOff.click();
    await expect.poll(async () => (await switchedOff()).switchedOff, { timeout: 20_000 }).toBe(true);
    expect((await switchedOff()).leases).toEqual([]);
    await settled(false);
    await onOff.click();
    await expect.poll(async () => (await switchedOff()).switchedOff, { timeout: 20_000 }).toBe(false);
    await open('#/servers?tab=assistant', 'page-servers');
    // The tab's ink bar is placed under the active tab a frame after the tabs render: the screenshot waits for it.
    await expect.poll(() => page.getByTestId('page-servers').evaluate(inkBarUnderActiveTab)).toBe(true);
    await screenshot(page, '10-servers-assistant');
    await page.getByTestId('locale-switch').click();
    await open('#/apps', 'page-apps');
    await expect.poll(() => page.locator('body').textContent()).toMatch(/[\u4e00-\u9fff]/);
    await screenshot(page, '11-apps-zh');
    await open('#/agents', 'page-agents');
    await screenshot(page, '12-agents-zh');
  });
});
