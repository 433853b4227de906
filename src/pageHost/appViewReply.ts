import { guardedViewHtml, viewCsp, viewProxy, type ViewPlace } from '../core/facades/tools.js';
import type { McpAppViews } from './mcpAppViews.js';

/**
 * The answer to a request at a view's site, whichever face serves it
 * (`http://<site>.localhost:<view port>/…` in `chatos serve`,
 * `chatos-view://<site>/…` on the desktop): docs/rules/mcp-apps.md#the-frame.
 * `/<id>` is the view's sandbox proxy, framed only by the renderer;
 * `/<id>/view` the view itself, under its own narrowed CSP, framed only by
 * its proxy (its own origin) inside the renderer. Both run at the site's
 * origin even when opened on their own; never cached, never sniffed into
 * another type; the view's HTML led by the guard that takes WebRTC out of
 * the page.
 */
export interface AppViewReply {
  status: number;
  headers: Record<string, string>;
  /** The text to send; a HEAD request gets the headers only. */
  body: string;
}

/** What a request at a view's site names. */
export interface ViewRequest {
  /** The site the request was made to (the host name's label). */
  site: string;
  /** The path, still percent-encoded. */
  path: string;
  method: string;
}

/** An error answer runs nothing; it may show in the view's frame, which is where the user reads it. */
const ERROR_CSP = "default-src 'none'; sandbox";
const COMMON = {
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  // A site is its own agent cluster: `document.domain` cannot join two views' sites.
  'Origin-Agent-Cluster': '?1',
};

function text(status: number, message: string, extra: Record<string, string> = {}): AppViewReply {
  return { status, headers: { ...COMMON, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Security-Policy': ERROR_CSP, ...extra }, body: `${message}\n` };
}

const html = (body: string, policy: string): AppViewReply => ({
  status: 200,
  headers: { ...COMMON, 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': policy },
  body,
});

/** `/<id>` (the proxy) or `/<id>/view` (the view it frames); undefined for any other path. */
function partOf(path: string): { id: string; part: 'proxy' | 'view' } | undefined {
  const match = /^\/([\w-]+)(\/view)?$/.exec(path);
  return match ? { id: match[1]!, part: match[2] ? 'view' : 'proxy' } : undefined;
}

/** `place` says who frames views and which origins are the host's (viewCsp.ts). */
export function appViewReply(views: McpAppViews, request: ViewRequest, place: ViewPlace): AppViewReply {
  if (request.method !== 'GET' && request.method !== 'HEAD') return text(405, 'views are read with GET', { Allow: 'GET, HEAD' });
  const named = partOf(request.path);
  const view = named && views.get(named.id, request.site);
  if (!named || !view) return text(404, 'this view is no longer here (the server restarted, or many views were opened since): open it again from its tool card');
  if (named.part === 'proxy') {
    const proxy = viewProxy(place.framers);
    return html(proxy.html, proxy.policy);
  }
  // WebRTC is out of CSP's reach: the guard takes it out of the page (docs/rules/mcp-apps.md#webrtc).
  return html(guardedViewHtml(view.html), viewCsp(view.csp, place).policy);
}
