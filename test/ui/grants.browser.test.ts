import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chatServerEntry } from '../helpers/mcpYaml.js';
import { type launchChromium, openChromiumOn, openRoute, screenshot, screenshotOnFailure, serveApi, type ServeProcess, startServe } from '../helpers/browser.js';
import { writeMcpYaml } from '../helpers/mcpYaml.js';
import { writePlugin } from '../helpers/plugins.js';
import { runCli } from '../helpers/runCli.js';

/**
 * Grants at scale and from where they are needed, in Chromium against a
 * real `chatos serve`: 100 servers (mcp.yaml) and 50 registered apps (real
 * plugin folders). The matrix stays usable (virtual in both directions,
 * columns grouped by provider, search), and the agent editor grants what an
 * agent picked but its host app may not see with one click.
 */

const SERVERS = 100;
const APPS = 50;
const name = (n: number) => `s${String(n).padStart(3, '0')}`;
const appId = (n: number) => `com.example.app${String(n).padStart(2, '0')}`;

let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;
const api = <T = any>(method: string, params: Record<string, unknown> = {}) => serveApi(serve)<T>(method, params);

async function cli(args: string[]): Promise<void> {
  const run = await runCli([...args, '--home', home]);
  expect(run.code, `chatos ${args.join(' ')}: ${run.stderr}`).toBe(0);
}

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-grants-'));
  writeMcpYaml(home, Object.fromEntries(Array.from({ length: SERVERS }, (_, n) => [name(n), chatServerEntry()])));
  const root = path.join(home, 'plugins-src');
  for (let n = 0; n < APPS - 1; n++) {
    writePlugin(
      root,
      `app${n}`,
      { manifestVersion: 1, id: appId(n), name: `App ${n}`, version: '1.0.0', apps: [{ id: 'main', name: `App ${n}`, entry: 'index.mjs' }] },
      { 'index.mjs': 'export function mount() {}\n' },
    );
  }
  // The desk offers s001 to agents: an agent hosted by app07 that picks it needs a grant.
  writePlugin(
    root,
    'desk',
    { manifestVersion: 1, id: 'com.example.desk', name: 'Desk', version: '1.0.0', apps: [{ id: 'desk', name: 'Desk', entry: 'index.mjs', ai: { mcpServers: [name(1)] } }] },
    { 'index.mjs': 'export function mount() {}\n' },
  );
  await cli(['roots', 'add', root]);
  const file = path.join(home, 'scout.json');
  fs.writeFileSync(
    file,
    JSON.stringify({ id: 'scout', name: 'Scout', hostAppId: appId(7), uiApps: [{ pluginId: 'com.example.desk', appId: 'desk', mcp: true, mcpServerIds: [`chatos::${name(1)}`] }] }),
  );
  await cli(['agents', 'create', '--file', file]);
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  ({ chromium, page } = await openChromiumOn(serve, { height: 900 }));
}, 120_000);

afterEach((context) => screenshotOnFailure(page, 'grants', context));

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  fs.rmSync(home, { recursive: true, force: true });
});

const open = (route: string, root: string) => openRoute(page, route, root);

const visibleTo = async (app: string) => (await api<{ visible: Record<string, { servers: string[] }> }>('registry.overview')).visible[app]!.servers;

describe('grants', () => {
  it('the matrix of 100 servers and 50 apps draws only what is on screen, grouped by provider, and grants the far corner', async () => {
    const overview = await api<{ servers: unknown[]; apps: unknown[] }>('registry.overview');
    expect(overview.servers.length).toBeGreaterThanOrEqual(SERVERS);
    expect(overview.apps.length).toBeGreaterThanOrEqual(APPS);
    await open('#/registry', 'page-registry');
    await page.getByTestId('grant-matrix').waitFor();
    await page.getByTestId('provider-chatos').waitFor();
    const cells = page.locator('[data-testid^="grant-com.example.app"]');
    await expect.poll(() => cells.count(), { timeout: 20_000 }).toBeGreaterThan(0);
    // Virtual: far fewer cells than 100 × 50 exist in the page.
    expect(await cells.count()).toBeLessThan(600);
    await screenshot(page, 'grants-01-matrix');
    // The last app's last server, reached by scrolling the matrix itself.
    const corner = page.getByTestId(`grant-${appId(48)}-chatos::${name(SERVERS - 1)}`);
    expect(await corner.count()).toBe(0);
    const holder = page.locator('[data-testid="grant-matrix"] .ant-table-tbody-virtual-holder');
    await expect
      .poll(
        async () => {
          await holder.evaluate((element) => element.scrollTo({ top: element.scrollHeight, left: element.scrollWidth }));
          await page.mouse.move(700, 600);
          await page.mouse.wheel(20_000, 20_000);
          return corner.count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    await corner.click();
    await expect.poll(() => visibleTo(appId(48)), { timeout: 20_000 }).toContain(`chatos::${name(SERVERS - 1)}`);
    await screenshot(page, 'grants-02-matrix-corner');
    // Search narrows the columns to the one server.
    await page.getByTestId('registry-search').fill(name(42));
    await expect.poll(() => page.locator('[data-testid="grant-matrix"] .registry-target-head').count()).toBe(1);
  });

  it('the agent editor grants a picked server its host app may not see with one click', async () => {
    expect(await visibleTo(appId(7))).not.toContain(`chatos::${name(1)}`);
    await open('#/agents', 'page-agents');
    await page.getByTestId('agent-edit-scout').click();
    const warning = page.getByTestId('agent-app-com.example.desk-desk-grant-servers');
    await warning.waitFor({ timeout: 20_000 });
    expect(await warning.textContent()).toContain(`The host app ${appId(7)} may not see these`);
    await screenshot(page, 'grants-03-agent-editor-grant');
    await warning.getByTestId(`grant-chatos::${name(1)}`).click();
    await expect.poll(() => visibleTo(appId(7)), { timeout: 20_000 }).toContain(`chatos::${name(1)}`);
    await warning.waitFor({ state: 'detached', timeout: 20_000 });
  });
});
