/**
 * The script that runs in every MCP App view right after the WebRTC guard
 * (docs/rules/mcp-apps.md#a-view-that-does-not-start): it tells the view's
 * sandbox proxy (viewProxy.ts) of an error the view's scripts left uncaught,
 * so the host can say why a view that never started shows nothing. The
 * host heeds it only before the view says it is initialized; the view can
 * send the same message itself, which only marks its own frame as failed.
 * A few reports at most: a view failing in a loop does not flood its proxy.
 */
export const VIEW_ERRORS = `(() => {
  let told = 0;
  const tell = (message) => {
    if (told++ >= 3) return;
    parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-view-error', params: { message: String(message).slice(0, 500) } }, location.origin);
  };
  addEventListener('error', (event) => tell(event.error instanceof Error ? event.error.name + ': ' + event.error.message : event.message));
  addEventListener('unhandledrejection', (event) => tell(event.reason instanceof Error ? event.reason.name + ': ' + event.reason.message : 'unhandled rejection: ' + String(event.reason)));
})();`;
