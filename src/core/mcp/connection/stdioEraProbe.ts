import type { DiscoverResult } from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientCapabilities, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isPlainObject } from '../../plainObject.js';
import { MODERN_PROTOCOL_VERSION } from '../client/modernClient.js';

/**
 * What asking a local server `server/discover` found (docs/rules/mcp-yaml.md#protocol-eras):
 * - `modern`: it offers 2026-07-28; its discover result is what the v2 client adopts, with no second round trip.
 * - `legacy`: it refused the method, answered without 2026-07-28, or said nothing within the probe's time; the
 *   same process is then spoken to over `initialize`.
 * - `exited`: it ended its process on the probe (some 2025 SDKs end on any request before `initialize`): a 2025
 *   server, started again to be spoken to over `initialize`.
 */
export type StdioEra = { kind: 'modern'; discover: DiscoverResult } | { kind: 'legacy'; why: string } | { kind: 'exited' };

/** The probe's id: a string, so it never meets the numeric ids the SDK clients number their requests with. */
const PROBE_ID = 'chatos-era-probe';

/**
 * Asks the server behind `transport` (not started yet) which era it speaks, on the connection itself: one
 * `server/discover` with the 2026 `_meta` envelope, its answer awaited at most `timeoutMs`. The transport is
 * left started, its handlers as they were, and its next `start()` (the one the client's `connect` makes) passes
 * through once, so the client takes over the same process (as the v2 SDK's own probe window does).
 */
export async function probeStdioEra(transport: Transport, client: { name: string; version: string }, capabilities: ClientCapabilities, timeoutMs: number): Promise<StdioEra> {
  const saved = { onmessage: transport.onmessage, onclose: transport.onclose };
  let settle: (era: StdioEra) => void = () => {};
  const answered = new Promise<StdioEra>((resolve) => (settle = resolve));
  transport.onmessage = (message: JSONRPCMessage) => {
    if (!('id' in message) || message.id !== PROBE_ID || 'method' in message) return;
    if ('result' in message) return settle(verdictOf(message.result));
    if ('error' in message) settle({ kind: 'legacy', why: `it answered server/discover with error ${message.error.code} (${message.error.message})` });
  };
  transport.onclose = () => {
    settle({ kind: 'exited' });
    saved.onclose?.();
  };
  const timer = setTimeout(() => settle({ kind: 'legacy', why: `it did not answer server/discover within ${timeoutMs / 1000} s` }), timeoutMs);
  try {
    await transport.start();
    const _meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
      'io.modelcontextprotocol/clientInfo': client,
      'io.modelcontextprotocol/clientCapabilities': capabilities,
    };
    transport.send({ jsonrpc: '2.0', id: PROBE_ID, method: 'server/discover', params: { _meta } }).catch(() => settle({ kind: 'exited' }));
    return await answered;
  } finally {
    clearTimeout(timer);
    transport.onmessage = saved.onmessage;
    transport.onclose = saved.onclose;
    passStartOnce(transport);
  }
}

/** A discover result that offers 2026-07-28 is a modern server; any other answer (a 2025 server's own result for an unknown method) is not. */
function verdictOf(result: unknown): StdioEra {
  const versions = isPlainObject(result) ? result.supportedVersions : undefined;
  if (Array.isArray(versions) && versions.includes(MODERN_PROTOCOL_VERSION)) return { kind: 'modern', discover: result as DiscoverResult };
  return { kind: 'legacy', why: `its server/discover answer does not offer ${MODERN_PROTOCOL_VERSION}` };
}

/** The transport is started already: the client's `connect` starts it once more, which passes through this once. */
function passStartOnce(transport: Transport): void {
  const start = transport.start.bind(transport);
  let armed = true;
  transport.start = async () => {
    if (!armed) return start();
    armed = false;
  };
}
