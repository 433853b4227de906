import type { ServerDefinition } from '../../../shared/mcp.js';

/** A server at a url answers at once or not at all: half a minute is long. */
export const DEFAULT_HTTP_CONNECT_TIMEOUT_MS = 30_000;
/** A command may fetch its package first (npx, uvx) on its first start. */
export const DEFAULT_STDIO_CONNECT_TIMEOUT_MS = 120_000;

/** How long starting this server may take: its own `connectTimeout`, else the default of its transport. */
export function connectTimeoutOf(definition: ServerDefinition): number {
  if (definition.connectTimeoutMs !== undefined) return definition.connectTimeoutMs;
  return definition.transport.kind === 'stdio' ? DEFAULT_STDIO_CONNECT_TIMEOUT_MS : DEFAULT_HTTP_CONNECT_TIMEOUT_MS;
}

/** Where the server is: its url, or the command line it is started with (an argument with spaces quoted). */
export function targetOf(definition: ServerDefinition): string {
  const { transport } = definition;
  if (transport.kind === 'streamable_http') return transport.url;
  if (transport.kind === 'stdio') return [transport.command, ...transport.args].map((arg) => (/\s/.test(arg) ? JSON.stringify(arg) : arg)).join(' ');
  return `in-process server ${transport.server}`;
}

/**
 * `work`, or the error `timedOut` makes once `ms` have passed, whichever
 * comes first; `onTimeout` runs first (it ends what the work holds open:
 * an HTTP request waiting forever, a process that never answered).
 */
export function withDeadline<T>(work: Promise<T>, ms: number, timedOut: () => Error, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(timedOut());
    }, ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
