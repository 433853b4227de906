import { guardedViewHtml, viewCsp } from '../core/facades/tools.js';
import type { McpAppViews } from './mcpAppViews.js';

/**
 * The answer to a request for an MCP App view, whichever face serves it
 * (`/mcp-app/<id>` in `chatos serve`, `chatos-view://v/<id>` on the
 * desktop): docs/rules/mcp-apps.md#the-frame. The view's own CSP, narrowed,
 * with `frame-ancestors` the renderer's origin and `sandbox allow-scripts`,
 * so even opened on its own it never runs as any origin of the host; never
 * cached, never sniffed into another type; its HTML led by the guard that
 * takes WebRTC out of the page.
 */
export interface AppViewReply {
  status: number;
  headers: Record<string, string>;
  /** The text to send; a HEAD request gets the headers only. */
  body: string;
}

/** An error answer runs nothing; it may show in the view's frame, which is where the user reads it. */
const ERROR_CSP = "default-src 'none'; sandbox";
const COMMON = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' };

function text(status: number, message: string, extra: Record<string, string> = {}): AppViewReply {
  return { status, headers: { ...COMMON, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Security-Policy': ERROR_CSP, ...extra }, body: `${message}\n` };
}

/** `hostOrigin` is the origin of the page that frames views (the renderer's): it alone may. */
export function appViewReply(views: McpAppViews, id: string, method: string, hostOrigin: string): AppViewReply {
  if (method !== 'GET' && method !== 'HEAD') return text(405, 'views are read with GET', { Allow: 'GET, HEAD' });
  const view = views.get(id);
  if (!view) return text(404, 'this view is no longer here (the server restarted, or many views were opened since): open it again from its tool card');
  return {
    status: 200,
    headers: {
      ...COMMON,
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': viewCsp(view.csp, hostOrigin).policy,
      // Loaded by an opaque-origin frame: a same-origin resource policy would block it.
      'Cross-Origin-Resource-Policy': 'cross-origin',
    },
    // WebRTC is out of CSP's reach: the guard takes it out of the page (docs/rules/mcp-apps.md#webrtc).
    body: guardedViewHtml(view.html),
  };
}
