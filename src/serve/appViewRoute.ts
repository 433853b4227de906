import type { IncomingMessage, ServerResponse } from 'node:http';
import { appViewReply } from '../pageHost/appViewReply.js';
import type { McpAppViews } from '../pageHost/mcpAppViews.js';
import { sendBody } from './responses.js';

/**
 * `/mcp-app/<id>`: an MCP App view a tab read with mcpApps.view
 * (docs/rules/mcp-apps.md#the-frame). Loaded by a sandboxed frame (an
 * opaque origin: no cookie), so the unguessable id is the capability; the
 * headers (the view's narrowed CSP, framed only by this origin) are the
 * ones the desktop's `chatos-view:` scheme sends too.
 */
export function handleAppViewRoute(req: IncomingMessage, res: ServerResponse, rawPath: string, hostHeader: string, views: McpAppViews): void {
  const reply = appViewReply(views, rawPath.slice('/mcp-app/'.length), req.method ?? 'GET', `http://${hostHeader}`);
  const { 'Content-Type': contentType, ...headers } = reply.headers;
  sendBody(req, res, reply.status, reply.body, contentType!, headers);
}
