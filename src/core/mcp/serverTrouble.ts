import * as path from 'node:path';
import type { AppContribution } from '../../shared/appContribution.js';
import type { ServerDefinition } from '../../shared/mcp.js';
import { registryId } from '../registry/registryTables.js';
import type { Problem } from '../../shared/problems.js';
import { whereConfigured } from './config/whereConfigured.js';
import { findCommand } from './process/commandPath.js';
import { isBareNode, nodeLaunch } from '../runtime/nodeRuntime.js';

/** Where to switch a `node` server to the app's own Node: its mcp.yaml entry, or the `nodeRuntime:` block for any other. */
function bundledNodeFix(definition: ServerDefinition, mcpConfigFile: string): string {
  return definition.origin === 'mcp.yaml'
    ? `set "nodeRuntime: bundled" (or auto) in servers.${definition.name} of ${mcpConfigFile}`
    : `add "${definition.id}": bundled under nodeRuntime.servers in ${mcpConfigFile} (or nodeRuntime.default: auto)`;
}

/** A server's last start that failed, kept until a later start succeeds or its definition changes. */
export interface StartFailure {
  definition: ServerDefinition;
  message: string;
  fix?: string;
  at: number;
}

/**
 * Why a server cannot run, as every face shows it: the server card's error
 * state, a problem on the Problems page, on its app (`chatos apps`, the Apps
 * page) and on each agent that uses it.
 */
export interface ServerTrouble {
  code: 'SERVER_COMMAND_NOT_FOUND' | 'SERVER_START_FAILED';
  message: string;
  fix: string;
  /** When its last start failed; a missing command is seen now. */
  at: number;
}

/** The PATH a stdio server's command is looked up in: the one its `env` gives it, else the host's (see minimalEnvironment). */
export function childPath(definition: ServerDefinition, hostEnv: NodeJS.ProcessEnv): string | undefined {
  if (definition.transport.kind !== 'stdio') return undefined;
  const own = definition.transport.env.PATH;
  if (typeof own === 'string') return own;
  // A PATH kept in the key store is read only when the server starts: not looked up here.
  if (own !== undefined) return 'env' in own ? hostEnv[own.env] : undefined;
  return process.env.PATH;
}

/** A stdio server whose command `spawn` would not find: with the folders searched and where to fix it. */
export function commandTrouble(definition: ServerDefinition, hostEnv: NodeJS.ProcessEnv, mcpConfigFile: string, now: number): ServerTrouble | undefined {
  const { transport } = definition;
  if (transport.kind !== 'stdio') return undefined;
  const pathVar = childPath(definition, hostEnv);
  // A `node` that runs under the app's own Node is always there.
  if (nodeLaunch(transport.command, transport.nodeRuntime, pathVar).runtime === 'bundled') return undefined;
  const lookup = findCommand(transport.command, pathVar, transport.cwd);
  if (lookup.found) return undefined;
  const command = transport.command;
  const where = whereConfigured(definition, mcpConfigFile);
  const field =
    where.kind === 'yaml'
      ? `servers.${definition.name}.command in ${where.file}`
      : where.kind === 'plugin'
        ? `"command" in ai.mcp of app "${where.appId}" in ${where.file}`
        : `the command ${definition.providerAppId} registers for it`;
  const file = lookup.searched[0] ?? command;
  switch (lookup.reason) {
    case 'not-on-path':
      return {
        code: 'SERVER_COMMAND_NOT_FOUND',
        message: `server "${definition.id}" cannot start: its command "${command}" was not found on PATH (searched: ${lookup.searched.length ? lookup.searched.join(', ') : 'nothing, PATH is empty'})`,
        fix: isBareNode(command)
          ? `install Node.js (so that node is on that PATH), or let the app's own Node run it: ${bundledNodeFix(definition, where.kind === 'yaml' ? where.file : mcpConfigFile)}`
          : `install ${command} (so that it is on that PATH), or set ${field} to its full path`,
        at: now,
      };
    case 'no-such-file':
      return { code: 'SERVER_COMMAND_NOT_FOUND', message: `server "${definition.id}" cannot start: its command ${file} does not exist`, fix: `install it there, or correct ${field}`, at: now };
    case 'not-executable':
      return {
        code: 'SERVER_COMMAND_NOT_FOUND',
        message: `server "${definition.id}" cannot start: its command ${file} is not executable`,
        fix: `make it executable (chmod +x ${file}), or correct ${field}`,
        at: now,
      };
  }
}

/**
 * What is wrong with a server now, if anything: a command that is not
 * there (known without starting it), else its last start's failure while
 * it is the definition that failed (a later good start, or an edit, clears
 * it). A disabled server is not started, so nothing is wrong with it.
 */
export function serverTrouble(definition: ServerDefinition, failure: StartFailure | undefined, hostEnv: NodeJS.ProcessEnv, mcpConfigFile: string, now: number): ServerTrouble | undefined {
  if (definition.disabled) return undefined;
  const missing = commandTrouble(definition, hostEnv, mcpConfigFile, now);
  if (missing) return failure ? { ...missing, at: failure.at } : missing;
  if (!failure) return undefined;
  return { code: 'SERVER_START_FAILED', message: failure.message, fix: failure.fix ?? 'see its log on the MCP servers page; fix its command or configuration, then restart it', at: failure.at };
}

/** The trouble as a problem about this server (file: its registry id, as the servers page matches them), or about what names it (an app's `ai.mcp`). */
export function troubleProblem(serverId: string, trouble: ServerTrouble, where: { file: string; path: string } = { file: serverId, path: '' }): Problem {
  return { severity: 'error', code: trouble.code, file: where.file, path: where.path, message: trouble.message, hint: trouble.fix };
}

/** An app's own server's trouble, as a problem of the app at `apps[i].ai.mcp` of its plugin.json. */
export function appServerProblems(app: AppContribution, appIndex: number, trouble: (serverId: string) => ServerTrouble | undefined): Problem[] {
  if (!app.mcp) return [];
  const found = trouble(registryId(app.providerAppId, app.serverName));
  return found ? [troubleProblem(registryId(app.providerAppId, app.serverName), found, { file: path.join(app.pluginDir, 'plugin.json'), path: `apps[${appIndex}].ai.mcp` })] : [];
}
