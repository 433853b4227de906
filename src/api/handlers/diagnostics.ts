import { runDiagnostics, serverPathSource } from '../../core/facades/setup.js';
import { DEFAULT_SERVE_PORT } from '../../shared/servePort.js';
import type { HandlerContext, Handlers } from './types.js';
import { protocolsOf } from '../../shared/protocolWords.js';

/** `chatos doctor` for the window: the same checks, in this host's process, on its servers and its PATH. */
export function diagnosticsHandlers({ host, version }: HandlerContext): Handlers<'diagnostics.run'> {
  return {
    'diagnostics.run': () =>
      runDiagnostics({
        appVersion: version,
        home: host.setup.home.root,
        mcpConfigFile: host.setup.home.mcpConfig,
        pathSource: serverPathSource(),
        hostEnv: process.env,
        servers: host.mcp.definitions(),
        protocols: protocolsOf(host.mcp.servers.list()),
        headlessPort: DEFAULT_SERVE_PORT,
        now: host.setup.clock.now(),
      }),
  };
}
