import { describe, expect, it } from 'vitest';
import { uiAppHost } from '../../electron/appUrls.js';
import { mayFrameNavigate, mayNavigate } from '../../electron/contentsGuards.js';

const APP = 'chatos://app/index.html#/apps';
const pageA = `chatos-app://${uiAppHost('acme', 'a')}/__chatos/full.html`;
const pageB = `chatos-app://${uiAppHost('other', 'b')}/__chatos/full.html`;

describe('navigation guards', () => {
  it('lets the window only reload what it shows', () => {
    expect(mayNavigate(APP, APP)).toBe(true);
    for (const target of ['https://evil.example/', 'chatos://app/other.html', 'file:///etc/passwd', pageA, 'chatos://artifacts/a.svg']) {
      expect(mayNavigate(APP, target), target).toBe(false);
    }
    expect(mayNavigate('', '')).toBe(false);
  });

  it('lets the renderer put any app page in a frame, and nothing else', () => {
    const byRenderer = { isMainFrame: false, currentUrl: APP, frameUrl: '', byRenderer: true };
    expect(mayFrameNavigate({ ...byRenderer, url: pageA })).toBe(true);
    expect(mayFrameNavigate({ ...byRenderer, url: 'about:blank' })).toBe(true);
    for (const url of ['https://evil.example/', 'chatos://app/index.html', 'chatos://artifacts/x.svg', 'data:text/html,<script>1</script>', 'javascript:alert(1)']) {
      expect(mayFrameNavigate({ ...byRenderer, url }), url).toBe(false);
    }
  });

  it('keeps an app page inside its own origin when it navigates itself', () => {
    const bySelf = { isMainFrame: false, currentUrl: APP, frameUrl: pageA, byRenderer: false };
    expect(mayFrameNavigate({ ...bySelf, url: pageA.replace('full.html', 'compact.html') })).toBe(true);
    // App A turning its frame into app B's page would run B with the ids the renderer bound to A.
    expect(mayFrameNavigate({ ...bySelf, url: pageB })).toBe(false);
    expect(mayFrameNavigate({ ...bySelf, url: 'https://evil.example/' })).toBe(false);
    expect(mayFrameNavigate({ ...bySelf, frameUrl: '', url: pageA })).toBe(false);
  });

  it('treats a top-frame navigation like will-navigate', () => {
    expect(mayFrameNavigate({ isMainFrame: true, currentUrl: APP, frameUrl: APP, byRenderer: true, url: APP })).toBe(true);
    expect(mayFrameNavigate({ isMainFrame: true, currentUrl: APP, frameUrl: APP, byRenderer: true, url: pageA })).toBe(false);
  });
});
