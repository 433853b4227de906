import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { MessageGate, RequestId } from './messageGate';

/** Requests the gate does not count against its limits (their ids still may not be reused while unanswered): context updates are coalesced to the newest instead (newestUpdate.ts). */
const UNGATED = new Set(['ui/update-model-context']);
/** JSON-RPC's "server error" range: what a refused request is answered with. */
const REFUSED = -32000;

const isId = (value: unknown): value is RequestId => typeof value === 'string' || typeof value === 'number';

/**
 * The bridge's link to one view's frame (docs/rules/mcp-apps.md#what-the-view-may-ask):
 * postMessage to and from that frame's window only, as ext-apps'
 * PostMessageTransport, with the gate in front. A request past the gate is
 * answered here with a refusal, before it is parsed or reaches a handler,
 * so a view that sends ten thousand at once costs a postMessage each and
 * gets every answer within the flood; and nothing is logged per message
 * (ext-apps' transport logs each one, which keeps them all in the console).
 */
export class ViewTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(
    private readonly view: Window,
    private readonly gate: MessageGate,
  ) {}

  private readonly listener = (event: MessageEvent) => {
    if (event.source !== this.view) return;
    const data: unknown = event.data;
    if (!data || typeof data !== 'object') return;
    const { id, method, params } = data as { id?: unknown; method?: unknown; params?: { requestId?: unknown } };
    if (typeof method === 'string' && isId(id)) {
      const refusal = this.gate.admit(id, !UNGATED.has(method));
      if (refusal) return this.view.postMessage({ jsonrpc: '2.0', id, error: { code: REFUSED, message: refusal } }, '*');
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

  start(): Promise<void> {
    window.addEventListener('message', this.listener);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    // An answer (a result or an error) ends the request's turn at the gate.
    if ('id' in message && !('method' in message) && isId(message.id)) this.gate.answered(message.id);
    this.view.postMessage(message, '*');
    return Promise.resolve();
  }

  close(): Promise<void> {
    window.removeEventListener('message', this.listener);
    this.onclose?.();
    return Promise.resolve();
  }
}
