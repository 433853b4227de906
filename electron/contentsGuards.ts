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

/** A `chatos-view:` url: a view's sandbox proxy (`//<site>/<id>`) or the view it frames (`…/view`). */
function viewUrl(url: string): { part: 'proxy' | 'view'; proxy: string } | undefined {
  if (!url.startsWith(`${VIEW_SCHEME}://`)) return undefined;
  const match = /^(chatos-view:\/\/[0-9a-f]{32}\/[\w-]+)(\/view)?$/.exec(url);
  return match ? { part: match[2] ? 'view' : 'proxy', proxy: match[1]! } : undefined;
}

/**
 * Where an MCP App's frames may go (docs/rules/mcp-apps.md#the-frame): the
 * renderer puts a view's sandbox proxy in a frame; the proxy frames only its
 * own view; either may reload itself, nothing more. The frames a view opens
 * may load the web pages its CSP's `frame-src` lets through (the origins it
 * declared, narrowed: docs/rules/mcp-apps.md#the-frames-csp), as they can in
 * `chatos serve`. Undefined: a navigation that is not an MCP App's.
 */
function mayViewFrameNavigate(navigation: FrameNavigation): boolean | undefined {
  const target = viewUrl(navigation.url);
  const parent = viewUrl(navigation.parentUrl);
  if (parent?.part === 'proxy') return target?.part === 'view' && target.proxy === parent.proxy;
  if (parent?.part === 'view') return /^https?:\/\//.test(navigation.url);
  if (navigation.parentUrl.startsWith(`${VIEW_SCHEME}://`)) return false;
  if (!navigation.url.startsWith(`${VIEW_SCHEME}://`)) return undefined;
  return target?.part === 'proxy' && (navigation.byRenderer || navigation.url === navigation.frameUrl);
}

/**
 * A subframe may show an app page (`chatos-app:`) when the renderer put it
 * there; a page may move only within its own app's origin, so app A's
 * frame can never be turned into app B's page (which would then act with
 * the ids the renderer bound to A's frame). An MCP App's frames follow
 * mayViewFrameNavigate.
 */
export function mayFrameNavigate(navigation: FrameNavigation): boolean {
  if (navigation.isMainFrame) return mayNavigate(navigation.currentUrl, navigation.url);
  if (navigation.url === 'about:blank') return true;
  const forView = mayViewFrameNavigate(navigation);
  if (forView !== undefined) return forView;
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
