import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { MessageGate, RequestId } from './messageGate';

/** Requests the gate does not count against its limits (their ids still may not be reused while unanswered): context updates are coalesced to the newest instead (newestUpdate.ts). */
const UNGATED = new Set(['ui/update-model-context']);
/** JSON-RPC's "server error" range: what a refused request is answered with. */
const REFUSED = -32000;

const isId = (value: unknown): value is RequestId => typeof value === 'string' || typeof value === 'number';

/** Between the page and the view's sandbox proxy alone (src/core/mcpApps/viewProxy.ts): never for the bridge. */
const SANDBOX = 'ui/notifications/sandbox-';

/** What the page learns of a view's start from its frame (viewStart.ts). */
export type ViewSignal = { kind: 'proxy-ready' } | { kind: 'initialized' } | { kind: 'error'; message: string };

/**
 * The bridge's link to one view's frame (docs/rules/mcp-apps.md#what-the-view-may-ask):
 * postMessage to and from that frame's window only, at the origin of the
 * view's site (its sandbox proxy relays for the view), as ext-apps'
 * PostMessageTransport, with the gate in front. The proxy's handshake is
 * answered here: when it says it is up, it is told to load the view. A
 * request past the gate is answered here with a refusal, before it is
 * parsed or reaches a handler, so a view that sends ten thousand at once
 * costs a postMessage each and gets every answer within the flood; and
 * nothing is logged per message (ext-apps' transport logs each one, which
 * keeps them all in the console).
 */
export class ViewTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /**
   * `view` is the proxy's window and `origin` the origin of the view's site,
   * the only one its messages are taken from and sent to; `signal` hears how
   * the view starts.
   */
  constructor(
    private readonly view: Window,
    private readonly gate: MessageGate,
    private readonly origin: string,
    private readonly signal: (signal: ViewSignal) => void = () => {},
  ) {}

  private readonly listener = (event: MessageEvent) => {
    if (event.source !== this.view || event.origin !== this.origin) return;
    const data: unknown = event.data;
    if (!data || typeof data !== 'object') return;
    const { id, method, params } = data as { id?: unknown; method?: unknown; params?: { requestId?: unknown; message?: unknown } };
    if (typeof method === 'string' && method.startsWith(SANDBOX)) return this.sandbox(method, params);
    if (method === 'ui/notifications/initialized') this.signal({ kind: 'initialized' });
    if (typeof method === 'string' && isId(id)) {
      const refusal = this.gate.admit(id, !UNGATED.has(method));
      if (refusal) return this.view.postMessage({ jsonrpc: '2.0', id, error: { code: REFUSED, message: refusal } }, this.origin);
    }
    const parsed = JSONRPCMessageSchema.safeParse(data);
    if (!parsed.success) {
      // Taken in but not a message the bridge can answer: it no longer counts.
      if (isId(id)) this.gate.answered(id);
      this.onerror?.(new Error(`the view sent an invalid JSON-RPC message: ${parsed.error.message.slice(0, 200)}`));
      return;
    }
    // A request the view cancelled is not answered (the SDK drops its result): it no longer counts.
    if (method === 'notifications/cancelled' && isId(params?.requestId)) this.gate.answered(params.requestId);
    this.onmessage?.(parsed.data);
  };

  /** The proxy's own notes: it is up (so it is told to load the view), or the view threw. */
  private sandbox(method: string, params: { message?: unknown } | undefined): void {
    if (method === `${SANDBOX}proxy-ready`) {
      this.view.postMessage({ jsonrpc: '2.0', method: `${SANDBOX}resource-ready`, params: {} }, this.origin);
      this.signal({ kind: 'proxy-ready' });
    } else if (method === `${SANDBOX}view-error`) this.signal({ kind: 'error', message: String(params?.message).slice(0, 500) });
  }

  start(): Promise<void> {
    window.addEventListener('message', this.listener);
    // A proxy that said it was up before this listener was there is told now (it heeds the first telling only).
    this.view.postMessage({ jsonrpc: '2.0', method: `${SANDBOX}resource-ready`, params: {} }, this.origin);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    // An answer (a result or an error) ends the request's turn at the gate.
    if ('id' in message && !('method' in message) && isId(message.id)) this.gate.answered(message.id);
    this.view.postMessage(message, this.origin);
    return Promise.resolve();
  }

  close(): Promise<void> {
    window.removeEventListener('message', this.listener);
    this.onclose?.();
    return Promise.resolve();
  }
}
