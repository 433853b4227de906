import type { Host } from '../../src/core/host.js';
import { internalsOf } from '../../src/core/modules/hostInternals.js';

/** Resolves with the first stderr line of server `serverId` containing `needle` (already logged, or the next to come); `timeoutMs` only guards a hang. */
export function stderrLine(host: Host, serverId: string, needle: string, timeoutMs = 10_000): Promise<string> {
  const log = internalsOf(host).mcp.runtime.connections.logOf(serverId);
  const seen = log.entries().find((e) => e.stream === 'stderr' && e.text.includes(needle));
  if (seen) return Promise.resolve(seen.text);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(
        new Error(
          `no stderr line with "${needle}" within ${timeoutMs} ms; log:\n${log
            .entries()
            .map((e) => `${e.stream}: ${e.text}`)
            .join('\n')}`,
        ),
      );
    }, timeoutMs);
    const stop = log.onAppend((entry) => {
      if (entry.stream !== 'stderr' || !entry.text.includes(needle)) return;
      clearTimeout(timer);
      stop();
      resolve(entry.text);
    });
  });
}
