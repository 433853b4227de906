import { appViewReply } from '../src/pageHost/appViewReply.js';
import type { McpAppViews } from '../src/pageHost/mcpAppViews.js';
import { VIEW_PLACE, VIEW_SCHEME } from './appUrls.js';

/**
 * The `chatos-view:` scheme (docs/rules/mcp-apps.md#the-frame):
 * `chatos-view://<site>/<id>` is the sandbox proxy of an MCP App view the
 * renderer read with mcpApps.view, and `…/<id>/view` the view it frames.
 * The id is the capability, served only at its own site; the answers (the
 * proxy's policy, the view's narrowed CSP, framed only by the renderer at
 * `chatos://app`, `no-store`) are the ones `chatos serve` gives at
 * `http://<site>.localhost:<view port>/…`.
 */
export function createAppViewProtocolHandler(views: McpAppViews): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    // Only a site's own host names views; any other url is answered as an unknown id.
    const site = url.protocol === `${VIEW_SCHEME}:` && /^[0-9a-f]{32}$/.test(url.host) ? url.host : '';
    const reply = appViewReply(views, { site, path: url.pathname, method: request.method }, VIEW_PLACE);
    return new Response(request.method === 'HEAD' ? null : reply.body, { status: reply.status, headers: reply.headers });
  };
}
