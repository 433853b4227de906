import { appViewReply } from '../src/pageHost/appViewReply.js';
import type { McpAppViews } from '../src/pageHost/mcpAppViews.js';
import { APP_ORIGIN, VIEW_HOST, VIEW_SCHEME } from './appUrls.js';

/**
 * The `chatos-view:` scheme: `chatos-view://v/<id>` is an MCP App view the
 * renderer read with mcpApps.view (docs/rules/mcp-apps.md#the-frame). The
 * id is the capability; the answer (the view's narrowed CSP, framed only by
 * the renderer at `chatos://app`, `sandbox allow-scripts`, `no-store`) is
 * the one `chatos serve` gives at `/mcp-app/<id>`.
 */
export function createAppViewProtocolHandler(views: McpAppViews): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    // Only `/<id>` on the one host names a view; any other url is answered as an unknown id.
    const id = url.protocol === `${VIEW_SCHEME}:` && url.host === VIEW_HOST && /^\/[\w-]+$/.test(url.pathname) ? url.pathname.slice(1) : '';
    const reply = appViewReply(views, id, request.method, APP_ORIGIN);
    return new Response(request.method === 'HEAD' ? null : reply.body, { status: reply.status, headers: reply.headers });
  };
}
