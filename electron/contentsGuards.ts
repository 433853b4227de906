import type { WebContents } from 'electron';
import { isAppUrl, UI_APP_SCHEME, VIEW_SCHEME } from './appUrls.js';

/**
 * What any web contents of ours may do: no navigation away from what it
 * shows, no new windows, no <webview>. Applied from `web-contents-created`,
 * so it covers the main window and anything else that could ever appear.
 * Decisions are pure functions (tested); `guardContents` only wires them.
 */

/** A top-level navigation: only a reload of the same url (the renderer routes by hash, which is not a navigation). */
export function mayNavigate(currentUrl: string, targetUrl: string): boolean {
  return currentUrl !== '' && targetUrl === currentUrl;
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

export interface FrameNavigation {
  url: string;
  isMainFrame: boolean;
  /** The url the top frame shows now. */
  currentUrl: string;
  /** The url the navigating frame shows now (empty when unknown). */
  frameUrl: string;
  /** The url of the frame's parent (empty for a top frame or when unknown). */
  parentUrl: string;
  /** True when the renderer's own top frame started it (it sets every app frame's src). */
  byRenderer: boolean;
}

/**
 * A subframe may show an app page (`chatos-app:`) when the renderer put it
 * there; a page may move only within its own app's origin, so app A's
 * frame can never be turned into app B's page (which would then act with
 * the ids the renderer bound to A's frame). An MCP App view
 * (`chatos-view:`) is shown only where the renderer put it and may only
 * reload itself; the frames a view opens may load the web pages its CSP's
 * `frame-src` lets through (the origins it declared, narrowed:
 * docs/rules/mcp-apps.md#the-frames-csp), as they can in `chatos serve`.
 */
export function mayFrameNavigate(navigation: FrameNavigation): boolean {
  if (navigation.isMainFrame) return mayNavigate(navigation.currentUrl, navigation.url);
  if (navigation.url === 'about:blank') return true;
  if (navigation.url.startsWith(`${VIEW_SCHEME}://`)) return navigation.byRenderer || navigation.url === navigation.frameUrl;
  if (navigation.parentUrl.startsWith(`${VIEW_SCHEME}://`)) return /^https?:\/\//.test(navigation.url);
  if (!navigation.url.startsWith(`${UI_APP_SCHEME}://`)) return false;
  if (navigation.byRenderer) return true;
  const target = hostOf(navigation.url);
  return target !== undefined && navigation.frameUrl.startsWith(`${UI_APP_SCHEME}://`) && hostOf(navigation.frameUrl) === target;
}

export function guardContents(contents: WebContents): void {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.on('will-navigate', (event) => {
    if (!mayNavigate(contents.getURL(), event.url)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!mayNavigate(contents.getURL(), event.url)) event.preventDefault();
  });
  contents.on('will-frame-navigate', (event) => {
    const initiator = event.initiator ?? null;
    const allowed = mayFrameNavigate({
      url: event.url,
      isMainFrame: event.isMainFrame,
      currentUrl: contents.getURL(),
      frameUrl: event.frame?.url ?? '',
      parentUrl: event.frame?.parent?.url ?? '',
      byRenderer: initiator !== null && initiator.parent === null && isAppUrl(initiator.url),
    });
    if (!allowed) event.preventDefault();
  });
}
