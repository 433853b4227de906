import { describe, expect, it } from 'vitest';
import { uiAppHost } from '../../electron/appUrls.js';
import { mayFrameNavigate, mayNavigate } from '../../electron/contentsGuards.js';

const APP = 'chatos://app/index.html#/apps';
const pageA = `chatos-app://${uiAppHost('acme', 'a')}/__chatos/full.html`;
const pageB = `chatos-app://${uiAppHost('other', 'b')}/__chatos/full.html`;
const viewA = 'chatos-view://v/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const viewB = 'chatos-view://v/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';

describe('navigation guards', () => {
  it('lets the window only reload what it shows', () => {
    expect(mayNavigate(APP, APP)).toBe(true);
    for (const target of ['https://evil.example/', 'chatos://app/other.html', 'file:///etc/passwd', pageA, 'chatos://artifacts/a.svg']) {
      expect(mayNavigate(APP, target), target).toBe(false);
    }
    expect(mayNavigate('', '')).toBe(false);
  });

  it('lets the renderer put any app page in a frame, and nothing else', () => {
    const byRenderer = { isMainFrame: false, currentUrl: APP, frameUrl: '', parentUrl: APP, byRenderer: true };
    expect(mayFrameNavigate({ ...byRenderer, url: pageA })).toBe(true);
    expect(mayFrameNavigate({ ...byRenderer, url: viewA })).toBe(true);
    expect(mayFrameNavigate({ ...byRenderer, url: 'about:blank' })).toBe(true);
    for (const url of ['https://evil.example/', 'chatos://app/index.html', 'chatos://artifacts/x.svg', 'data:text/html,<script>1</script>', 'javascript:alert(1)']) {
      expect(mayFrameNavigate({ ...byRenderer, url }), url).toBe(false);
    }
  });

  it('keeps an app page inside its own origin when it navigates itself', () => {
    const bySelf = { isMainFrame: false, currentUrl: APP, frameUrl: pageA, parentUrl: APP, byRenderer: false };
    expect(mayFrameNavigate({ ...bySelf, url: pageA.replace('full.html', 'compact.html') })).toBe(true);
    // App A turning its frame into app B's page would run B with the ids the renderer bound to A.
    expect(mayFrameNavigate({ ...bySelf, url: pageB })).toBe(false);
    expect(mayFrameNavigate({ ...bySelf, url: 'https://evil.example/' })).toBe(false);
    expect(mayFrameNavigate({ ...bySelf, frameUrl: '', url: pageA })).toBe(false);
    // A page cannot turn itself into an MCP App view.
    expect(mayFrameNavigate({ ...bySelf, url: viewA })).toBe(false);
  });

  it('lets an MCP App view only reload itself, never become another view, an app page or a web page', () => {
    const byView = { isMainFrame: false, currentUrl: APP, frameUrl: viewA, parentUrl: APP, byRenderer: false };
    expect(mayFrameNavigate({ ...byView, url: viewA })).toBe(true);
    for (const url of [viewB, pageA, 'https://evil.example/', 'chatos://app/index.html', 'data:text/html,<script>1</script>']) {
      expect(mayFrameNavigate({ ...byView, url }), url).toBe(false);
    }
    // Its attempts at the window itself are top-frame navigations: refused like any other.
    expect(mayFrameNavigate({ ...byView, isMainFrame: true, frameUrl: APP, parentUrl: '', url: 'https://evil.example/' })).toBe(false);
    expect(mayNavigate(APP, viewA)).toBe(false);
  });

  it("lets a view's own frames load web pages (its CSP's frame-src decides which), and nothing of ChatOS", () => {
    const inView = { isMainFrame: false, currentUrl: APP, frameUrl: '', parentUrl: viewA, byRenderer: false };
    expect(mayFrameNavigate({ ...inView, url: 'https://maps.example/embed' })).toBe(true);
    for (const url of [viewB, pageA, 'chatos://app/index.html', 'chatos://artifacts/x.svg', 'file:///etc/passwd', 'javascript:alert(1)']) {
      expect(mayFrameNavigate({ ...inView, url }), url).toBe(false);
    }
    // One level only: a web page's own frames are not a view's.
    expect(mayFrameNavigate({ ...inView, parentUrl: 'https://maps.example/embed', url: 'https://ads.example/' })).toBe(false);
  });

  it('treats a top-frame navigation like will-navigate', () => {
    const top = { isMainFrame: true, currentUrl: APP, frameUrl: APP, parentUrl: '', byRenderer: true };
    expect(mayFrameNavigate({ ...top, url: APP })).toBe(true);
    expect(mayFrameNavigate({ ...top, url: pageA })).toBe(false);
    expect(mayFrameNavigate({ ...top, url: viewA })).toBe(false);
  });
});
