// The canvas's MCP App view (SEP-1865; docs/using/canvas.md#in-other-mcp-hosts):
// one ui:// resource, a self-contained HTML document that renders the
// instance a canvas tool returned and lets the user act on it. Its tools
// name it in `_meta.ui.resourceUri` (toolMeta below).
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { linkModules } from './inlineModules.mjs';

export const VIEW_URI = 'ui://canvas/instance.html';

/**
 * What the view needs of its host, and nothing wider: no connection, no
 * resource, no frame, no base URI of any other origin (every list empty, so
 * a host applies the spec's restrictive default), no device permission.
 */
const VIEW_META = { ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, prefersBorder: true } };

export const VIEW_RESOURCE = {
  uri: VIEW_URI,
  name: 'canvas-instance',
  title: 'Canvas instance',
  description: 'The live view of a canvas instance: its forms and actions, following every change.',
  mimeType: RESOURCE_MIME_TYPE,
  _meta: VIEW_META,
};

/** The `_meta` of a tool whose result the view shows (the spec's key and the older flat one, for hosts that read only that). */
export const toolMeta = () => ({ ui: { resourceUri: VIEW_URI }, [RESOURCE_URI_META_KEY]: VIEW_URI });

const ENTRY = fileURLToPath(new URL('../app/mcpView.mjs', import.meta.url));

let html;
/** The document, linked once per process from the page's modules and the ext-apps App class beside them. */
export function viewHtml() {
  if (html !== undefined) return html;
  const app = fileURLToPath(import.meta.resolve('@modelcontextprotocol/ext-apps/app-with-deps'));
  const script = linkModules(ENTRY, { '@modelcontextprotocol/ext-apps/app-with-deps': path.resolve(app) });
  html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>Canvas</title>',
    '<style>html, body { margin: 0; padding: 0; background: transparent; }</style></head>',
    `<body><script type="module">\n${script}\n</script></body>`,
    '</html>',
  ].join('\n');
  return html;
}

/**
 * resources/read: the view, or an error naming the one uri this server has: Invalid Params (-32602), the code
 * MCP 2026-07-28 gives a resource that does not exist on every revision (it was -32002).
 */
export function readView(uri) {
  if (uri !== VIEW_URI) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown resource "${String(uri).slice(0, 200)}": this server has one, ${VIEW_URI}`);
  return { contents: [{ uri: VIEW_URI, mimeType: RESOURCE_MIME_TYPE, text: viewHtml(), _meta: VIEW_META }] };
}
