import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appCapability } from '../../src/serve/auth.js';
import { apiCall, raw, SECRET, startServeFixture, type ServeFixture } from './serveHarness.js';

let f: ServeFixture;
beforeAll(async () => {
  f = await startServeFixture();
});
afterAll(async () => {
  await f?.stop();
});

/** The shell url the API hands out for an app, as the renderer gets it. */
async function openUrl(pluginId: string, appId: string, surface: 'full' | 'compact' = 'full'): Promise<string> {
  const reply = JSON.parse((await apiCall(f, { method: 'uiApps.open', params: { pluginId, appId, surface } })).body);
  if (!reply.ok) throw new Error(JSON.stringify(reply.error));
  return reply.result.url as string;
}
const base = (pluginId: string, appId: string) => `/ui/${appCapability(f.token, pluginId, appId)}/${pluginId}/${appId}/`;
/** What a sandboxed frame's module import sends: Origin null, no cookie. */
const fromFrame = { origin: 'null' };

describe('page urls', () => {
  it('uiApps.open gives /ui/<cap>/<pluginId>/<appId>/__shell?surface=…', async () => {
    expect(await openUrl('good', 'main')).toBe(`${base('good', 'main')}__shell?surface=full`);
    expect(await openUrl('good', 'main', 'compact')).toBe(`${base('good', 'main')}__shell?surface=compact`);
  });

  it("a good app's module is served to a sandboxed frame (Origin null) with Access-Control-Allow-Origin: *", async () => {
    const res = await raw(f.port, { path: `${base('good', 'main')}app/index.mjs?v=123`, headers: fromFrame });
    expect(res.status).toBe(200);
    expect(res.body).toContain("container.textContent = 'mounted'");
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('content types follow the extension', async () => {
    const css = await raw(f.port, { path: `${base('good', 'main')}app/style.css`, headers: fromFrame });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    const manifest = await raw(f.port, { path: `${base('good', 'main')}plugin.json`, headers: fromFrame });
    expect(manifest.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('a wrong capability is 403, also the capability of another app', async () => {
    const wrong = `/ui/${'A'.repeat(43)}/good/main/app/index.mjs`;
    expect((await raw(f.port, { path: wrong, headers: fromFrame })).status).toBe(403);
    const otherApps = `/ui/${appCapability(f.token, 'stranger', 'main')}/good/main/app/index.mjs`;
    expect((await raw(f.port, { path: otherApps, headers: fromFrame })).status).toBe(403);
    const otherToken = `/ui/${appCapability('not-the-token', 'good', 'main')}/good/main/app/index.mjs`;
    expect((await raw(f.port, { path: otherToken, headers: fromFrame })).status).toBe(403);
  });

  it('paths that leave the plugin folder are 404: .., %2e%2e, %2f, a dotfile; a link inside is served', async () => {
    const b = base('good', 'main');
    for (const p of [
      `${b}../../../../../../../../etc/passwd`,
      `${b}app/../../outside/secret.txt`,
      `${b}%2e%2e/%2e%2e/outside/secret.txt`,
      `${b}app%2f..%2f..%2foutside%2fsecret.txt`,
      `${b}app/.env`,
      `${b}app/%2eenv`,
      `${b}app`,
      `${b}app/missing.mjs`,
    ]) {
      const res = await raw(f.port, { path: p, headers: fromFrame });
      expect(res.status, p).toBe(404);
      expect(res.body).not.toContain(SECRET);
    }
    const inside = await raw(f.port, { path: `${b}app/inside.css`, headers: fromFrame });
    expect(inside.status).toBe(200);
    expect(inside.body).toBe('body { color: red; }\n');
  });

  it('a built-in plugin holding a link out of its folder is blocked: its shell and files are 403 naming the link', async () => {
    for (const p of [`${base('linked', 'main')}__shell?surface=full`, `${base('linked', 'main')}app/index.mjs`, `${base('linked', 'main')}app/outside.txt`]) {
      const res = await raw(f.port, { path: p, headers: fromFrame });
      expect(res.status, p).toBe(403);
      expect(res.body).toContain('"app/outside.txt" is a link to');
      expect(res.body).not.toContain(SECRET);
    }
    // The link really points at the secret: the gate, not a missing file, keeps it out.
    expect(fs.readFileSync(path.join(f.linkedDir, 'app', 'outside.txt'), 'utf8')).toBe(SECRET);
  });

  it("an untrusted plugin's shell and files are 403 with how to trust it", async () => {
    for (const p of [`${base('stranger', 'main')}__shell?surface=full`, `${base('stranger', 'main')}app/index.mjs`]) {
      const res = await raw(f.port, { path: p, headers: fromFrame });
      expect(res.status, p).toBe(403);
      expect(res.body).toContain('chatos trust stranger');
    }
  });

  it('an app that does not exist is 404', async () => {
    expect((await raw(f.port, { path: `${base('good', 'nope')}__shell` })).status).toBe(404);
  });

  it("the shell html loads only the bridge by url (no inline script) under a CSP with connect-src 'none'", async () => {
    const res = await raw(f.port, { path: `${base('good', 'main')}__shell?surface=compact` });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const origin = `http://127.0.0.1:${f.port}`;
    const appBase = `${origin}${base('good', 'main')}`;
    const csp = String(res.headers['content-security-policy']).split('; ');
    expect(csp).toEqual(
      expect.arrayContaining([
        "default-src 'none'",
        `script-src ${appBase}`,
        `style-src 'unsafe-inline' ${appBase}`,
        `img-src ${appBase} data: blob:`,
        `font-src ${appBase}`,
        "connect-src 'none'",
        `frame-ancestors ${origin}`,
      ]),
    );
    const scripts = [...res.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]![2]).toBe('');
    expect(scripts[0]![1]).toContain('src="__bridge.js"');
    expect(scripts[0]![1]).toContain(`data-module-url="${appBase}app/compact.mjs"`);
    expect(scripts[0]![1]).toContain('data-surface="compact"');
  });

  it('the CSP and frame-ancestors follow the loopback name the browser used', async () => {
    const res = await raw(f.port, { path: `${base('good', 'main')}__shell`, headers: { host: `localhost:${f.port}` } });
    expect(String(res.headers['content-security-policy'])).toContain(`frame-ancestors http://localhost:${f.port}`);
  });

  it('the bridge script is served as JavaScript holding the typed bridgeMain', async () => {
    const res = await raw(f.port, { path: `${base('good', 'main')}__bridge.js` });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.body).toContain('function bridgeMain(');
    expect(res.body).toContain('(url) => import(url)');
    // It must parse as a classic script (the shell loads it without type=module).
    expect(() => new Function(res.body)).not.toThrow();
  });

  it('page files are read-only: POST is 405', async () => {
    expect((await raw(f.port, { method: 'POST', path: `${base('good', 'main')}app/index.mjs`, body: '' })).status).toBe(405);
  });

  it('a bad surface is 400', async () => {
    expect((await raw(f.port, { path: `${base('good', 'main')}__shell?surface=huge` })).status).toBe(400);
  });
});

describe('artifacts', () => {
  it('serves a file inside the artifacts folder, under a CSP that sandboxes it', async () => {
    const dir = path.join(f.home, 'chatos', 'artifacts', 'conv 1');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'pic.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const res = await raw(f.port, { path: '/artifacts/conv%201/pic.svg', headers: { cookie: `chatos_token_${f.port}=${f.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(String(res.headers['content-security-policy'])).toContain('sandbox');
    expect((await raw(f.port, { path: `/artifacts/conv%201/pic.svg?token=${f.token}` })).status).toBe(200);
  });

  it('refuses artifacts outside the folder: .., %2e%2e, a symlink out', async () => {
    const dir = path.join(f.home, 'chatos', 'artifacts');
    fs.mkdirSync(dir, { recursive: true });
    fs.symlinkSync(f.outsideFile, path.join(dir, 'link.txt'));
    const cookie = `chatos_token_${f.port}=${f.token}`;
    for (const p of ['/artifacts/../admin.db', '/artifacts/%2e%2e/mcp.yaml', '/artifacts/link.txt', '/artifacts/..%2f..%2foutside%2fsecret.txt']) {
      const res = await raw(f.port, { path: p, headers: { cookie } });
      expect(res.status, p).toBe(404);
      expect(res.body).not.toContain(SECRET);
    }
  });
});
