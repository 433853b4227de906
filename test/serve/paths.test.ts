import { McpAppViews } from '../../src/pageHost/mcpAppViews.js';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentTypeOf, fileInside, urlPathSegments } from '../../src/pageHost/safePath.js';
import { appCapability } from '../../src/serve/auth.js';
import { serveFaceUrls } from '../../src/serve/serveUrls.js';
import { tempDir } from '../helpers/tempDir.js';

describe('urlPathSegments', () => {
  it('decodes each segment and drops empty ones', () => {
    expect(urlPathSegments('app/my%20page/index.mjs')).toEqual(['app', 'my page', 'index.mjs']);
    expect(urlPathSegments('/a//b/')).toEqual(['a', 'b']);
  });

  it.each(['..', 'a/../b', '%2e%2e/x', '%2E%2E', '.', 'a/./b', '.git/config', 'a/.env', 'a%2fb', 'a%5cb', 'a%00b', '%zz'])('refuses %s', (input) => {
    expect(urlPathSegments(input)).toBeUndefined();
  });
});

describe('fileInside', () => {
  it('finds a regular file and refuses folders, missing files and symlinks that leave the root', () => {
    const root = tempDir();
    const outside = tempDir();
    fs.mkdirSync(path.join(root, 'sub'));
    fs.writeFileSync(path.join(root, 'sub', 'a.js'), 'a');
    fs.writeFileSync(path.join(outside, 'b.js'), 'b');
    fs.symlinkSync(path.join(outside, 'b.js'), path.join(root, 'out.js'));
    fs.symlinkSync(outside, path.join(root, 'outdir'));
    fs.symlinkSync(path.join(root, 'sub', 'a.js'), path.join(root, 'in.js'));
    expect(fileInside(root, ['sub', 'a.js'])).toBe(fs.realpathSync(path.join(root, 'sub', 'a.js')));
    expect(fileInside(root, ['in.js'])).toBe(fs.realpathSync(path.join(root, 'sub', 'a.js')));
    expect(fileInside(root, ['sub'])).toBeUndefined();
    expect(fileInside(root, ['nope.js'])).toBeUndefined();
    expect(fileInside(root, ['out.js'])).toBeUndefined();
    expect(fileInside(root, ['outdir', 'b.js'])).toBeUndefined();
    expect(fileInside(root, [])).toBeUndefined();
  });

  it('refuses a symlink inside the root that resolves to a hidden file', () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, '.git'));
    fs.writeFileSync(path.join(root, '.git', 'config'), 'secret');
    fs.symlinkSync(path.join(root, '.git', 'config'), path.join(root, 'config.txt'));
    expect(fileInside(root, ['config.txt'])).toBeUndefined();
  });
});

describe('contentTypeOf', () => {
  it.each([
    ['a.mjs', 'text/javascript; charset=utf-8'],
    ['a.JS', 'text/javascript; charset=utf-8'],
    ['a.css', 'text/css; charset=utf-8'],
    ['a.json', 'application/json; charset=utf-8'],
    ['a.svg', 'image/svg+xml'],
    ['a.png', 'image/png'],
    ['a.jpg', 'image/jpeg'],
    ['a.gif', 'image/gif'],
    ['a.webp', 'image/webp'],
    ['a.html', 'text/html; charset=utf-8'],
    ['a.woff2', 'font/woff2'],
    ['a.pdf', 'application/pdf'],
    ['a.md', 'text/markdown; charset=utf-8'],
    ['a.exe', 'application/octet-stream'],
    ['Makefile', 'application/octet-stream'],
    // An extension from a url is data: a name of Object's prototype is no type.
    ['a.__proto__', 'application/octet-stream'],
    ['a.constructor', 'application/octet-stream'],
    ['a.toString', 'application/octet-stream'],
  ])('%s is %s', (file, type) => {
    expect(contentTypeOf(file)).toBe(type);
  });
});

describe('serveFaceUrls', () => {
  const urls = serveFaceUrls('the-token', '/home/u/.chatos/chatos/artifacts', '/home/u/.chatos/chatos/conversations', new McpAppViews(), () => ({
    port: 1,
    place: { framers: ['http://127.0.0.1:2'], hostOrigins: ['http://127.0.0.1:2'] },
  }));

  it('page urls carry the per-app capability', () => {
    expect(urls.uiAppUrl('com.example', 'db-client', 'compact')).toBe(`/ui/${appCapability('the-token', 'com.example', 'db-client')}/com.example/db-client/__shell?surface=compact`);
    expect(appCapability('the-token', 'p', 'a')).not.toBe(appCapability('the-token', 'p', 'b'));
  });

  it('artifact urls are encoded per segment', () => {
    expect(urls.artifactUrl('/home/u/.chatos/chatos/artifacts/conv 1/a#b.png')).toBe('/artifacts/conv%201/a%23b.png');
  });

  it('refuses a file outside the artifacts folder', () => {
    expect(() => urls.artifactUrl('/home/u/.chatos/chatos/admin.db')).toThrow(/not inside the artifacts folder/);
    expect(() => urls.artifactUrl('/home/u/.chatos/chatos/artifacts')).toThrow(/not inside/);
  });

  it("a conversation's images have urls, nothing else of a conversation does", () => {
    const conversations = '/home/u/.chatos/chatos/conversations';
    expect(urls.artifactUrl(`${conversations}/c1/artifacts/mcp/s/t/1-a.png`)).toBe('/conversation-artifacts/c1/mcp/s/t/1-a.png');
    expect(() => urls.artifactUrl(`${conversations}/c1/messages.jsonl`)).toThrow(/not inside/);
    expect(() => urls.artifactUrl(`${conversations}/c1/artifacts`)).toThrow(/not inside/);
  });
});
