import type { IncomingMessage, ServerResponse } from 'node:http';
import { viewCsp } from '../core/facades/tools.js';
import type { McpAppViews } from '../pageHost/mcpAppViews.js';
import { sendBody, sendText } from './responses.js';

/**
 * `/mcp-app/<id>`: an MCP App view a tab read with mcpApps.view
 * (docs/rules/mcp-apps.md#the-frame). Loaded by a sandboxed frame (an
 * opaque origin: no cookie), so the unguessable id is the capability; the
 * CSP is the one the view declared, narrowed, with `sandbox allow-scripts`
 * so even opened on its own it never runs as this origin.
 */
export function handleAppViewRoute(req: IncomingMessage, res: ServerResponse, rawPath: string, hostHeader: string, views: McpAppViews): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'views are read with GET', { Allow: 'GET, HEAD' });
  const view = views.get(rawPath.slice('/mcp-app/'.length));
  if (!view) return sendText(res, 404, 'this view is no longer here (the server restarted, or many views were opened since): open it again from its tool card');
  res.setHeader('Content-Security-Policy', viewCsp(view.csp, `http://${hostHeader}`).policy);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  sendBody(req, res, 200, view.html, 'text/html; charset=utf-8');
}
