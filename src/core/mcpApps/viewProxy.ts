import { createHash } from 'node:crypto';
import { VIEW_SANDBOX } from './viewCsp.js';

/**
 * The sandbox proxy of an MCP App view (docs/rules/mcp-apps.md#the-frame),
 * as the spec draws it: the host page frames this document, served from an
 * origin of the view's own (never the host's), and it frames the view from
 * that same origin. So the view and its parent window are one origin (a view
 * that touches `window.parent`, as Vue's reactive wrappers do, works), while
 * the host page, its cookies, storage and API, and every other app's views
 * are other origins.
 *
 * The proxy relays JSON-RPC between the host page and the view and nothing
 * else: the host's messages come only from the framing window, at one of
 * the origins that may frame it (the first one it hears from is the one it
 * answers, by that exact origin); the view's only from its frame, at the
 * proxy's own origin. The `ui/notifications/sandbox-*` handshake is between
 * host and proxy: it says the proxy is up (`sandbox-proxy-ready`), and the
 * host answers `sandbox-resource-ready` to have it load the view, which its
 * server sends under the view's CSP (unlike the reference host, which posts
 * the HTML: the same document, its policy in a header no script can edit).
 * A view never sends one of those; only `sandbox-view-error` (from the
 * script that runs first in the view, viewErrors.ts) is passed on, bounded.
 */
const PROXY = `(() => {
  const FRAMERS = __FRAMERS__;
  const SELF = location.origin;
  const SANDBOX = 'ui/notifications/sandbox-';
  const methodOf = (data) => (data && typeof data === 'object' && typeof data.method === 'string' ? data.method : '');
  let host;
  let view;
  addEventListener('message', (event) => {
    const method = methodOf(event.data);
    if (event.source === parent && event.source !== window) {
      if (host === undefined) {
        if (!FRAMERS.includes(event.origin) || method !== SANDBOX + 'resource-ready') return;
        host = event.origin;
        view = document.createElement('iframe');
        view.setAttribute('sandbox', __SANDBOX__);
        view.src = location.pathname.replace(/\\/+$/, '') + '/view';
        document.body.appendChild(view);
      } else if (event.origin === host && !method.startsWith(SANDBOX)) view.contentWindow?.postMessage(event.data, SELF);
    } else if (view && event.source === view.contentWindow && event.origin === SELF && host !== undefined) {
      if (!method.startsWith(SANDBOX)) parent.postMessage(event.data, host);
      else if (method === SANDBOX + 'view-error')
        parent.postMessage({ jsonrpc: '2.0', method, params: { message: String(event.data.params && event.data.params.message).slice(0, 500) } }, host);
    }
  });
  parent.postMessage({ jsonrpc: '2.0', method: SANDBOX + 'proxy-ready', params: {} }, '*');
})();`;

const STYLE = 'html,body{margin:0;height:100%;overflow:hidden}iframe{display:block;border:0;width:100%;height:100%}';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The proxy's document and its policy: its own script and style only (by
 * hash), frames only of its own origin (the view), framed only by `framers`.
 */
export function viewProxy(framers: readonly string[]): { html: string; policy: string } {
  const script = PROXY.replace('__FRAMERS__', JSON.stringify(framers)).replace('__SANDBOX__', JSON.stringify(VIEW_SANDBOX));
  const html = `<!doctype html><html><head><meta charset="utf-8"><style>${STYLE}</style></head><body><script>${script}</script></body></html>`;
  const policy = [
    "default-src 'none'",
    `script-src ${sha256(script)}`,
    `style-src ${sha256(STYLE)}`,
    "frame-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
    `frame-ancestors ${framers.join(' ')}`,
    `sandbox ${VIEW_SANDBOX}`,
  ].join('; ');
  return { html, policy };
}
