import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerDefinition } from '../../../shared/mcp.js';
import type { RunGateAnswer } from '../../policy/runGate.js';
import { toolNameFor } from '../catalog/toolNaming.js';
import { whereConfigured } from '../config/whereConfigured.js';

export type GatewayErrorCode = 'UNKNOWN_TOOL' | 'NOT_GRANTED' | 'NOT_RUNNABLE' | 'WRONG_FLOW' | 'SERVER_DISABLED' | 'BAD_ARGUMENTS';

/**
 * A refusal of the gateway: a code to branch on, why (naming the tool and
 * the server), and the exact fix. `message` says both, for whoever shows one
 * line (a model reads it as the call's error); faces that show a fix apart
 * use `reason` and `fix`.
 */
export class GatewayError extends Error {
  readonly reason: string;

  constructor(
    readonly code: GatewayErrorCode,
    reason: string,
    readonly fix?: string,
    /** The server the refusal is about, when it names one. */
    readonly serverId?: string,
  ) {
    super(fix ? `${reason}; ${fix}` : reason);
    this.reason = reason;
  }
}

/** What the gateway found out about the caller's access to one server, in the order it is told. */
export interface AccessFacts {
  caller: { appId: string; agentId?: string; flow: 'main' | 'sub' };
  toolName: string;
  server: ServerDefinition;
  switchedOff: boolean;
  granted: boolean;
  gate: RunGateAnswer;
  mcpConfigFile: string;
}

function enableFix(server: ServerDefinition, mcpConfigFile: string): string {
  const where = whereConfigured(server, mcpConfigFile);
  if (where.kind === 'yaml') return `remove "disabled: true" from servers.${server.name} in ${where.file}`;
  if (where.kind === 'plugin') return `set "enabled": true in ai.mcp of app "${where.appId}" in ${where.file}`;
  return `enable it where ${server.providerAppId} registers it`;
}

function flowFix(server: ServerDefinition, flow: 'main' | 'sub', mcpConfigFile: string): string {
  const flag = flow === 'main' ? 'allowMain' : 'allowSub';
  const other = flow === 'main' ? 'sub' : 'main';
  const where = whereConfigured(server, mcpConfigFile);
  const elsewhere = `, or call it in a ${other} flow (--flow ${other})`;
  if (where.kind === 'yaml') return `set "${flag}: true" for servers.${server.name} in ${where.file}${elsewhere}`;
  if (where.kind === 'plugin') return `set "${flag}": true in ai.mcp of app "${where.appId}" in ${where.file}${elsewhere}`;
  return `call it in a ${other} flow (--flow ${other}); ${server.providerAppId} decides ${flag} for its servers`;
}

/**
 * Why this caller may not call a tool of this server, first reason first:
 * the server is off (by its config or by the user), not granted, its plugin
 * may not run, the flow, or the caller's own selection; each with its fix.
 */
export function refusalOf(facts: AccessFacts): GatewayError {
  const { caller, toolName, server, mcpConfigFile } = facts;
  const refuse = (code: GatewayErrorCode, message: string, fix: string) => new GatewayError(code, message, fix, server.id);
  if (server.disabled) return refuse('SERVER_DISABLED', `"${toolName}" belongs to server "${server.id}", which is disabled`, enableFix(server, mcpConfigFile));
  if (facts.switchedOff) {
    return refuse('SERVER_DISABLED', `"${toolName}" belongs to server "${server.id}", which the user switched off`, 'switch it on again with its switch on the MCP servers page');
  }
  if (!facts.granted) return refuse('NOT_GRANTED', `${caller.appId} may not use "${toolName}": server "${server.id}" is not granted to it`, `chatos grant ${caller.appId} ${server.id}`);
  if (!facts.gate.ok) return refuse('NOT_RUNNABLE', `"${toolName}" is not offered: ${facts.gate.message}`, facts.gate.fix);
  const flag = caller.flow === 'main' ? 'allowMain' : 'allowSub';
  if (!(caller.flow === 'main' ? server.allowMain : server.allowSub)) {
    return refuse('WRONG_FLOW', `"${toolName}" is not available in ${caller.flow} flows: server "${server.id}" has ${flag} false`, flowFix(server, caller.flow, mcpConfigFile));
  }
  const fix = caller.agentId
    ? `add "${server.id}" to the servers of agent ${caller.agentId} (the Agents page, or chatos agents update ${caller.agentId} --file AGENT.json)`
    : `this caller may use only the servers it was given; call "${toolName}" as an app or agent that selects "${server.id}"`;
  return refuse('NOT_GRANTED', `"${toolName}" of server "${server.id}" is not among the servers selected for this caller`, fix);
}

/** Whether the server's tool list, as last listed, gives a tool this name. */
function lists(server: ServerDefinition, tools: readonly Tool[] | undefined, toolName: string): boolean {
  return tools?.some((tool) => {
    const named = toolNameFor(server, tool.name);
    return named.ok && named.name === toolName;
  }) === true;
}

/**
 * The server a refused name belongs to, among the servers whose names could
 * make it: one whose listed tools give that name; else one whose default
 * prefix it carries and whose tools are not known yet. `guess` (the name must
 * be refused, so some server is named) then takes one whose prefix it
 * carries, then one with a transform that could make it and has not listed
 * its tools yet, then the first. A
 * server with a transform could make many names, so it is named only when
 * nothing more certain is left.
 */
export function ownerOf(candidates: readonly ServerDefinition[], toolName: string, cachedTools: (serverId: string) => readonly Tool[] | undefined, guess: boolean): ServerDefinition | undefined {
  const listed = candidates.find((server) => lists(server, cachedTools(server.id), toolName));
  if (listed) return listed;
  const byPrefix = candidates.find((server) => server.transform.length === 0 && cachedTools(server.id) === undefined);
  if (byPrefix || !guess) return byPrefix;
  return candidates.find((server) => server.transform.length === 0) ?? candidates.find((server) => cachedTools(server.id) === undefined) ?? candidates[0];
}
