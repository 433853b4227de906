import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openRoute, screenshot, type ServeProcess, startServe } from '../helpers/browser.js';
import { serveApi } from '../helpers/serveApi.js';
import { writeMcpYaml } from '../helpers/mcpYaml.js';

/**
 * Each server's protocol on the MCP servers page (docs/using/mcp-servers.md#protocol-eras), in Chromium against
 * `chatos serve`: a server built with the v2 server package is spoken to statelessly (MCP 2026-07-28), one built
 * with the v1 SDK over initialize (MCP 2025-11-25); the page says which, also once their instances have ended.
 */

const ERA_SERVER = path.join(import.meta.dirname, '..', 'fixtures', 'servers', 'eraServer.mjs');
let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-eras-'));
  for (const era of ['modern', 'legacy']) fs.writeFileSync(path.join(home, `${era}.era`), era);
  writeMcpYaml(home, {
    modern: { transport: 'stdio', command: process.execPath, args: [ERA_SERVER, path.join(home, 'modern.era')] },
    legacy: { transport: 'stdio', command: process.execPath, args: [ERA_SERVER, path.join(home, 'legacy.era')] },
  });
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  // Each started once to list its tools: its protocol is known from then on.
  await serveApi(serve, 'servers.tools', { serverId: 'chatos::modern' });
  await serveApi(serve, 'servers.tools', { serverId: 'chatos::legacy' });
  chromium = await launchChromium();
  page = await chromium.context.newPage();
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto(serve.url);
});

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  fs.rmSync(home, { recursive: true, force: true });
});

describe("each server's protocol on the MCP servers page", () => {
  it('says the revision and the era: stateless for 2026-07-28, initialize for 2025', async () => {
    await openRoute(page, '#/servers', 'page-servers');
    const modern = page.getByTestId('server-protocol-chatos::modern');
    const legacy = page.getByTestId('server-protocol-chatos::legacy');
    expect(await modern.textContent()).toBe('MCP 2026-07-28stateless (2026 era)');
    expect(await legacy.textContent()).toBe('MCP 2025-11-25initialize (2025 era)');
    await modern.scrollIntoViewIfNeeded();
    await screenshot(page, 'server-protocol-eras');
  });
});
