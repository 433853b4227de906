import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ORIGIN, parseUiAppHost, uiAppHost } from '../../electron/appUrls.js';
import { uiAppShellCsp } from '../../src/pageHost/uiAppFiles.js';
import { trustPlugin } from '../helpers/gatewayHost.js';
import { writePlugin } from '../helpers/plugins.js';
import { startTestDesktop } from './desktopFixture.js';

const SECRET = 'TOP-SECRET-CONTENT';
/** An app id as the original ChatOS accepted it: capitals and a dot (normalize() derives names from it: docs/rules/names-and-exposure.md#app-ids). */
const APP = 'Report.Board';

/** A started desktop host with one app page plugin (trusted unless told otherwise) and a secret beside it. */
async function desktopWithApp(options: { trusted?: boolean } = {}) {
  const t = await startTestDesktop(({ pluginRoot }) => {
    writePlugin(
      pluginRoot,
      'acme-pages',
      { manifestVersion: 1, id: 'Acme.Pages', name: 'Pages', version: '1.0.0', apps: [{ id: APP, name: 'Board', entry: { type: 'module', path: 'app/index.mjs', compact: 'app/compact.mjs' } }] },
      { 'app/index.mjs': 'export function mount() {}\n', 'app/compact.mjs': 'export default () => {}\n', 'app/style.css': 'body{}', '.env': SECRET },
    );
    fs.writeFileSync(path.join(pluginRoot, 'secret.txt'), SECRET);
  });
  if (options.trusted !== false) trustPlugin(t.desktop.host, 'Acme.Pages');
  const base = `chatos-app://${uiAppHost('Acme.Pages', APP)}`;
  const get = (url: string, method = 'GET') => t.desktop.uiAppProtocol(new Request(url, { method }));
  return { ...t, base, get };
}

describe('chatos-app:// app origins', () => {
  it('encodes (pluginId, appId) in a host that survives lower-casing', () => {
    const host = uiAppHost('Acme.Pages', APP);
    expect(host).toMatch(/^[0-9a-f.]+$/);
    expect(new URL(`chatos-app://${host}/x`).host).toBe(host);
    expect(parseUiAppHost(host.toUpperCase())).toEqual({ pluginId: 'Acme.Pages', appId: APP });
    // Long ids are split into DNS-sized labels.
    const long = uiAppHost('p'.repeat(128), 'a'.repeat(64));
    expect(long.split('.').every((label) => label.length <= 63)).toBe(true);
    expect(parseUiAppHost(long)).toEqual({ pluginId: 'p'.repeat(128), appId: 'a'.repeat(64) });
    expect(uiAppHost('a', 'bc')).not.toBe(uiAppHost('ab', 'c'));
    for (const bad of ['', 'zz', 'abc', Buffer.from('noslash').toString('hex'), Buffer.from('a/b/c').toString('hex'), Buffer.from('/b').toString('hex')]) {
      expect(parseUiAppHost(bad), bad).toBeUndefined();
    }
  });

  it('serves an app shell that imports the page module from its own origin, under the frame CSP', async () => {
    const { base, get, desktop } = await desktopWithApp();
    const opened = await desktop.api.handle({ method: 'uiApps.open', params: { pluginId: 'Acme.Pages', appId: APP } });
    expect(opened).toMatchObject({ ok: true, result: { url: `${base}/__chatos/full.html` } });
    const shell = await get(`${base}/__chatos/full.html`);
    expect(shell.status).toBe(200);
    expect(shell.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(shell.headers.get('content-security-policy')).toBe(uiAppShellCsp({ baseUrl: `${base}/`, hostOrigin: APP_ORIGIN }));
    const html = await shell.text();
    expect(html).toContain(`data-module-url="${base}/app/index.mjs"`);
    expect(html).toContain('src="/__chatos/bridge.js"');
    const compact = await (await get(`${base}/__chatos/compact.html`)).text();
    expect(compact).toContain(`data-module-url="${base}/app/compact.mjs"`);

    const bridge = await get(`${base}/__chatos/bridge.js`);
    expect(bridge.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await bridge.text()).toMatch(/chatos/);
    // The frame is an opaque origin: its import() of the module is a CORS request.
    const module = await get(`${base}/app/index.mjs?v=3`);
    expect(module.status).toBe(200);
    expect(module.headers.get('access-control-allow-origin')).toBe('*');
    expect(module.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await module.text()).toContain('export function mount');
    expect((await get(`${base}/app/style.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('serves nothing of an untrusted plugin', async () => {
    const { base, get } = await desktopWithApp({ trusted: false });
    for (const url of [`${base}/__chatos/full.html`, `${base}/__chatos/bridge.js`, `${base}/app/index.mjs`]) {
      const response = await get(url);
      expect(response.status, url).toBe(403);
      expect(await response.text()).toMatch(/chatos trust Acme\.Pages/);
    }
  });

  it.each(['/%2e%2e/secret.txt', '/app/..%2f..%2fsecret.txt', '/.env', '/app/%2e%2e/.env', '/__chatos/other.html', '/__chatos/../.env'])('refuses %s', async (pathname) => {
    const { base, get } = await desktopWithApp();
    const response = await get(`${base}${pathname}`);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain(SECRET);
  });

  it('answers only hosts that name an installed app, and only GET/HEAD', async () => {
    const { base, get } = await desktopWithApp();
    expect((await get(`chatos-app://${uiAppHost('Acme.Pages', 'nope')}/__chatos/full.html`)).status).toBe(404);
    expect((await get('chatos-app://not-hex/__chatos/full.html')).status).toBe(404);
    expect((await get(`${base}/app/index.mjs`, 'POST')).status).toBe(405);
  });
});
