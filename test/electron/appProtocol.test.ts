import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppProtocolHandler } from '../../electron/appProtocol.js';
import { APP_CSP, ARTIFACT_CSP, artifactUrl, electronFaceUrls } from '../../electron/appUrls.js';
import { resolveAppRequest, resolveArtifactRequest } from '../../electron/protocolFiles.js';
import { McpAppViews } from '../../src/pageHost/mcpAppViews.js';
import { tempDir } from '../helpers/tempDir.js';

const SECRET = 'TOP-SECRET-CONTENT';

/** A built renderer, an artifacts folder, and secrets next to both that no url may reach. */
function folders() {
  const root = tempDir('chatos-el-proto-');
  const rendererDir = path.join(root, 'renderer');
  const artifactsDir = path.join(root, 'home', 'chatos', 'artifacts');
  fs.mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
  fs.mkdirSync(path.join(artifactsDir, 'conv-1'), { recursive: true });
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>ChatOS</title>');
  fs.writeFileSync(path.join(rendererDir, 'assets', 'main-abc.js'), 'console.log(1)');
  fs.writeFileSync(path.join(rendererDir, '.env'), SECRET);
  fs.writeFileSync(path.join(root, 'secret.txt'), SECRET);
  fs.writeFileSync(path.join(root, 'home', 'chatos', 'admin.db'), SECRET);
  fs.writeFileSync(path.join(artifactsDir, 'conv-1', 'shot 1.png'), 'png');
  fs.symlinkSync(path.join(root, 'secret.txt'), path.join(rendererDir, 'assets', 'link.js'));
  fs.symlinkSync(path.join(root, 'home', 'chatos', 'admin.db'), path.join(artifactsDir, 'db.png'));
  return { root, rendererDir, artifactsDir, handler: createAppProtocolHandler({ rendererDir, artifactsDir }) };
}

const get = (handler: (r: Request) => Promise<Response>, url: string, method = 'GET') => handler(new Request(url, { method }));

describe('chatos://app', () => {
  it('serves the renderer with its type and the strict CSP', async () => {
    const { handler } = folders();
    const page = await get(handler, 'chatos://app/index.html');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>ChatOS</title>');
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: chatos:; frame-src chatos-app: chatos-view:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const script = await get(handler, 'chatos://app/assets/main-abc.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe('console.log(1)');
  });

  it('answers the root and extension-less routes with index.html, a missing asset with 404', async () => {
    const { handler } = folders();
    for (const url of ['chatos://app/', 'chatos://app', 'chatos://app/agents', 'chatos://app/apps/x/y?tab=1']) {
      const response = await get(handler, url);
      expect(response.status, url).toBe(200);
      expect(await response.text(), url).toContain('<title>ChatOS</title>');
    }
    const missing = await get(handler, 'chatos://app/assets/gone.js');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-security-policy')).toBe(APP_CSP);
  });

  it.each([
    'chatos://app/%2e%2e/secret.txt',
    'chatos://app/assets/%2e%2e/%2e%2e/secret.txt',
    'chatos://app/..%2fsecret.txt',
    'chatos://app/assets%2f..%2f..%2fsecret.txt',
    'chatos://app/..%5csecret.txt',
    'chatos://app/.env',
    'chatos://app/assets/link.js',
    'chatos://app/%E0%A4%A.js',
  ])('never reads outside the renderer: %s', async (url) => {
    const { handler } = folders();
    const response = await get(handler, url);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await response.text()).not.toContain(SECRET);
  });

  it('a url path that climbs out is refused before any file is looked up', () => {
    const { rendererDir } = folders();
    // What a raw request line could carry before any URL parser normalized it.
    expect(resolveAppRequest(rendererDir, { pathname: '/../secret.txt' } as URL)).toMatchObject({ ok: false, status: 400 });
    expect(resolveAppRequest(rendererDir, { pathname: '/assets/../../secret.txt' } as URL)).toMatchObject({ ok: false, status: 400 });
  });

  it('serves GET and HEAD only, and nothing on other hosts', async () => {
    const { handler } = folders();
    expect((await get(handler, 'chatos://app/index.html', 'POST')).status).toBe(405);
    const head = await get(handler, 'chatos://app/index.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await get(handler, 'chatos://evil/index.html')).status).toBe(404);
  });

  it('says how to fix a renderer that was not built', async () => {
    const handler = createAppProtocolHandler({ rendererDir: path.join(tempDir(), 'none'), artifactsDir: tempDir() });
    const response = await get(handler, 'chatos://app/');
    expect(response.status).toBe(404);
    expect(await response.text()).toMatch(/npm run build/);
  });
});

describe('chatos://artifacts', () => {
  it('serves a saved artifact by the url the api hands out, under a CSP that runs nothing', async () => {
    const { handler, artifactsDir } = folders();
    const url = artifactUrl(artifactsDir, path.join(artifactsDir, 'conv-1', 'shot 1.png'));
    expect(url).toBe('chatos://artifacts/conv-1/shot%201.png');
    const response = await get(handler, url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-security-policy')).toBe(ARTIFACT_CSP);
    expect(await response.text()).toBe('png');
  });

  it.each([
    'chatos://artifacts/%2e%2e/admin.db',
    'chatos://artifacts/..%2fadmin.db',
    'chatos://artifacts/conv-1/%2e%2e/%2e%2e/admin.db',
    'chatos://artifacts/db.png',
    'chatos://artifacts/',
    'chatos://artifacts/conv-1',
  ])('never reads outside the artifacts folder, nor a folder: %s', async (url) => {
    const { handler } = folders();
    const response = await get(handler, url);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain(SECRET);
  });

  it('has no url for a file outside the artifacts folder', () => {
    const { artifactsDir, root } = folders();
    expect(() => artifactUrl(artifactsDir, path.join(root, 'secret.txt'))).toThrow(/not inside the artifacts folder/);
    expect(() => artifactUrl(artifactsDir, artifactsDir)).toThrow(/not inside/);
    expect(resolveArtifactRequest(artifactsDir, { pathname: '/../home/chatos/admin.db' } as URL).ok).toBe(false);
  });
});

describe('chatos://conversation-artifacts', () => {
  it("serves a conversation's saved images and nothing else of it", async () => {
    const root = tempDir('chatos-el-conv-');
    const conversationsDir = path.join(root, 'conversations');
    const images = path.join(conversationsDir, 'c1', 'artifacts', 'mcp', 's', 't');
    fs.mkdirSync(images, { recursive: true });
    fs.writeFileSync(path.join(images, '1-a.png'), 'png');
    fs.writeFileSync(path.join(conversationsDir, 'c1', 'messages.jsonl'), SECRET);
    fs.symlinkSync(path.join(conversationsDir, 'c1', 'messages.jsonl'), path.join(images, 'link.png'));
    const handler = createAppProtocolHandler({ rendererDir: tempDir(), artifactsDir: tempDir(), conversationsDir });
    const urls = electronFaceUrls(tempDir(), () => '/shell', new McpAppViews(), conversationsDir);
    const url = urls.artifactUrl(path.join(images, '1-a.png'));
    expect(url).toBe('chatos://conversation-artifacts/c1/mcp/s/t/1-a.png');
    const image = await get(handler, url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-security-policy')).toBe(ARTIFACT_CSP);
    for (const bad of ['chatos://conversation-artifacts/c1/messages.jsonl', 'chatos://conversation-artifacts/c1/%2e%2e/messages.jsonl', 'chatos://conversation-artifacts/c1/mcp/s/t/link.png']) {
      const response = await get(handler, bad);
      expect(response.status, bad).toBe(404);
      expect(await response.text()).not.toContain(SECRET);
    }
  });
});
