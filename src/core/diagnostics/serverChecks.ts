import { said } from './checkWords.js';
import type { DiagnosticCheck } from '../../shared/diagnostics.js';
import type { ServerDefinition, ServerProtocol } from '../../shared/mcp.js';
import { protocolText } from '../../shared/protocolWords.js';
import { findCommand } from '../process/commandPath.js';
import { childPath, commandTrouble } from '../mcp/serverTrouble.js';
import { nodeLaunch } from '../runtime/nodeRuntime.js';

/**
 * For each configured server that is on: whether its command resolves on
 * the PATH it would get, and to what (a `node` possibly to the app's own
 * Node). A url is not connected to here: that is "test connection"'s part.
 */
export function serverChecks(
  definitions: readonly ServerDefinition[],
  hostEnv: NodeJS.ProcessEnv,
  mcpConfigFile: string,
  now: number,
  protocols: ReadonlyMap<string, ServerProtocol> = new Map(),
): DiagnosticCheck[] {
  const checks: DiagnosticCheck[] = [];
  for (const definition of definitions) {
    const { transport } = definition;
    if (definition.disabled || transport.kind === 'in-process') continue;
    // The era it spoke at its last start (docs/using/mcp-servers.md#protocol-eras): nothing is started here to ask it.
    const protocol = protocols.get(definition.id);
    if (protocol) {
      const text = protocolText(protocol);
      checks.push({
        id: `protocol:${definition.id}`,
        status: 'ok',
        summary: `spoke ${text} at its last start`,
        facts: { era: protocol.era, ...(protocol.version ? { version: protocol.version } : {}) },
        ...said('serverProtocol', { protocol: text }),
      });
    }
    const id = `server:${definition.id}`;
    if (transport.kind === 'streamable_http') {
      checks.push({ id, status: 'ok', summary: `connects to ${transport.url} (not tried here)`, facts: { url: transport.url }, ...said('serverUrl', { url: transport.url }) });
      continue;
    }
    const trouble = commandTrouble(definition, hostEnv, mcpConfigFile, now);
    if (trouble) {
      checks.push({ id, status: 'fail', summary: trouble.message, fix: trouble.fix, facts: { command: transport.command } });
      continue;
    }
    const pathVar = childPath(definition, hostEnv);
    const launch = nodeLaunch(transport.command, transport.nodeRuntime, pathVar);
    if (launch.runtime === 'bundled') {
      const why = launch.why === 'chosen' ? 'nodeRuntime: bundled' : 'no node on its PATH';
      checks.push({
        id,
        status: 'ok',
        summary: `node runs as the app's own Node, ${launch.command} (${why})`,
        facts: { command: transport.command, resolved: launch.command, runtime: 'bundled' },
        ...said(launch.why === 'chosen' ? 'serverBundledChosen' : 'serverBundledNoNode', { resolved: launch.command }),
      });
      continue;
    }
    const found = findCommand(transport.command, pathVar, transport.cwd);
    const resolved = found.found ? found.file : transport.command;
    checks.push({
      id,
      status: 'ok',
      summary: `${transport.command} is ${resolved}`,
      facts: { command: transport.command, resolved, runtime: launch.runtime === 'system' ? 'system' : 'as-written' },
      ...said('serverResolved', { command: transport.command, resolved }),
    });
  }
  return checks;
}
