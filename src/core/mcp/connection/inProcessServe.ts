import { InMemoryTransport, type McpServer, type Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

/**
 * Serves an in-process server (the settings server, the built-in tools) over an in-memory pair and gives the
 * client's end. It is served as a program of either protocol era is (serveStdio, with the pair as its channel): the
 * opening message picks the era, `server/discover` a stateless 2026-07-28 connection with `_meta` on every request,
 * `initialize` a 2025 one, and one instance from `factory` serves the connection until it closes.
 */
export function serveInProcess(factory: () => McpServer): Transport {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serveStdio(factory, { transport: serverSide });
  return clientSide;
}
