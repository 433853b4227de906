import { describe, expect, it } from 'vitest';
import { uiAppHost } from '../../electron/appUrls.js';
import { mayFrameNavigate, mayNavigate } from '../../electron/contentsGuards.js';

const APP = 'chatos://app/index.html#/apps';
const pageA = `chatos-app://${uiAppHost('acme', 'a')}/__chatos/full.html`;
const pageB = `chatos-app://${uiAppHost('other', 'b')}/__chatos/full.html`;
// A view's sandbox proxy at its site, and the view it frames; another app's (another site).
const viewA = 'chatos-view://0123456789abcdef0123456789abcdef/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const innerA = `${viewA}/view`;
const viewB = 'chatos-view://fedcba9876543210fedcba9876543210/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const innerB = `${viewB}/view`;

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
    // A view itself only inside its proxy; a url no view has, never.
    for (const url of [
      innerA,
      'chatos-view://v/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      `${viewA}/x`,
      'https://evil.example/',
      'chatos://app/index.html',
      'chatos://artifacts/x.svg',
      'data:text/html,<script>1</script>',
      'javascript:alert(1)',
    ]) {
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

  it('lets an MCP App view’s proxy only reload itself, never become another view, an app page or a web page', () => {
    const byView = { isMainFrame: false, currentUrl: APP, frameUrl: viewA, parentUrl: APP, byRenderer: false };
    expect(mayFrameNavigate({ ...byView, url: viewA })).toBe(true);
    for (const url of [viewB, innerA, pageA, 'https://evil.example/', 'chatos://app/index.html', 'data:text/html,<script>1</script>']) {
      expect(mayFrameNavigate({ ...byView, url }), url).toBe(false);
    }
    // Its attempts at the window itself are top-frame navigations: refused like any other.
    expect(mayFrameNavigate({ ...byView, isMainFrame: true, frameUrl: APP, parentUrl: '', url: 'https://evil.example/' })).toBe(false);
    expect(mayNavigate(APP, viewA)).toBe(false);
  });

  it('lets a proxy frame only its own view, which may reload itself', () => {
    const inProxy = { isMainFrame: false, currentUrl: APP, frameUrl: '', parentUrl: viewA, byRenderer: false };
    expect(mayFrameNavigate({ ...inProxy, url: innerA })).toBe(true);
    expect(mayFrameNavigate({ ...inProxy, frameUrl: innerA, url: innerA })).toBe(true);
    for (const url of [innerB, viewA, viewB, pageA, 'https://maps.example/embed', 'chatos://app/index.html', 'javascript:alert(1)']) {
      expect(mayFrameNavigate({ ...inProxy, url }), url).toBe(false);
    }
  });

  it("lets a view's own frames load web pages (its CSP's frame-src decides which), and nothing of ChatOS", () => {
    const inView = { isMainFrame: false, currentUrl: APP, frameUrl: '', parentUrl: innerA, byRenderer: false };
    expect(mayFrameNavigate({ ...inView, url: 'https://maps.example/embed' })).toBe(true);
    for (const url of [viewB, innerB, viewA, pageA, 'chatos://app/index.html', 'chatos://artifacts/x.svg', 'file:///etc/passwd', 'javascript:alert(1)']) {
      expect(mayFrameNavigate({ ...inView, url }), url).toBe(false);
    }
    // A frame under a chatos-view url that is no view's (no proxy, no view): nothing.
    expect(mayFrameNavigate({ ...inView, parentUrl: 'chatos-view://v/x', url: 'https://maps.example/embed' })).toBe(false);
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
