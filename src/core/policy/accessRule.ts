import type { ServerDefinition } from '../../shared/mcp.js';
import { whereConfigured } from '../mcp/config/whereConfigured.js';
import { providerPrefix } from '../registry/registryTables.js';
import type { RunGateAnswer } from './runGate.js';

/**
 * The one answer to "may this caller use this server in this flow?"
 * (docs/rules/access.md#the-rule): the server is on (in its config and by the
 * user's switch), granted to the caller's app, its plugin may run now, its
 * flow flag allows the caller's flow, and the caller's own selection (an
 * agent's servers, a page's own server) holds it. The gateway asks it for
 * every listing and every resolved call; a refusal carries a code to branch
 * on, the reason and the exact fix.
 *
 * Who is granted what (the owner app sees everything, an app its own
 * registrations and what it was granted, never a missing row) is
 * `grantAllows` below; the registry answers it with its indexes.
 */

export type AccessCode = 'SERVER_DISABLED' | 'NOT_GRANTED' | 'NOT_RUNNABLE' | 'WRONG_FLOW';

export type AccessRefusal = { ok: false; code: AccessCode; reason: string; fix: string };
export type AccessAnswer = { ok: true } | AccessRefusal;

const ACCESS_OK: AccessAnswer = Object.freeze({ ok: true });

export interface AccessCaller {
  appId: string;
  agentId?: string;
  flow: 'main' | 'sub';
  /** The caller's own selection: only these registry ids, when given. */
  serverIds?: readonly string[];
}

/**
 * What the rule reads about one server, asked lazily and in order (each is
 * an O(1) cached lookup on the call path): the user's switch, the
 * registry's grant, the run gate's cached answer.
 */
export interface AccessFacts {
  switchedOff(): boolean;
  granted(): boolean;
  gate(): RunGateAnswer;
  /** Where mcp.yaml is, for the fixes that name it. */
  mcpConfigFile: string;
}

/** Whether the server's flow flag lets this flow use it. */
export const flowAllows = (server: Pick<ServerDefinition, 'allowMain' | 'allowSub'>, flow: 'main' | 'sub') => (flow === 'main' ? server.allowMain : server.allowSub);

/** Whether the caller's selection (if it has one) holds the server. */
export const selectionHolds = (caller: Pick<AccessCaller, 'serverIds'>, serverId: string) => !caller.serverIds || caller.serverIds.includes(serverId);

/**
 * The grant rule: the owner app sees every registration, any other app its
 * own (registered under its provider id) and those it was granted; a
 * registration marked missing is seen by no one (its grants wait for it).
 */
export function grantAllows(appId: string, row: { id: string; missing?: unknown }, ownerAppId: string, hasGrant: () => boolean): boolean {
  if (row.missing) return false;
  return appId === ownerAppId || row.id.startsWith(providerPrefix(appId)) || hasGrant();
}

/**
 * The answer, first reason first: off (config, then the user's switch), not
 * granted, its plugin may not run, the flow, the caller's selection.
 * `toolName`, when a call names one, is said in the reason.
 */
export function accessTo(caller: AccessCaller, server: ServerDefinition, facts: AccessFacts, toolName?: string): AccessAnswer {
  const id = server.id;
  /** The server, or the tool a call names. */
  const named = toolName === undefined ? `server "${id}"` : `"${toolName}"`;
  const off = (which: string) =>
    toolName === undefined ? `server "${id}" is ${which}` : `"${toolName}" belongs to server "${id}", which ${which === 'disabled' ? 'is disabled' : 'the user switched off'}`;
  if (server.disabled) return refuse('SERVER_DISABLED', off('disabled'), enableFix(server, facts.mcpConfigFile));
  if (facts.switchedOff()) return refuse('SERVER_DISABLED', off('switched off by the user'), 'switch it on again with its switch on the MCP servers page');
  if (!facts.granted()) return refuse('NOT_GRANTED', `${caller.appId} may not use ${named}: server "${id}" is not granted to it`, `chatos grant ${caller.appId} ${id}`);
  const gate = facts.gate();
  if (!gate.ok) return refuse('NOT_RUNNABLE', `${named} is not offered: ${gate.message}`, gate.fix);
  if (!flowAllows(server, caller.flow)) {
    const flag = caller.flow === 'main' ? 'allowMain' : 'allowSub';
    return refuse('WRONG_FLOW', `${named} is not available in ${caller.flow} flows: server "${id}" has ${flag} false`, flowFix(server, caller.flow, facts.mcpConfigFile));
  }
  if (!selectionHolds(caller, id)) {
    const fix = caller.agentId
      ? `add "${id}" to the servers of agent ${caller.agentId} (the Agents page, or chatos agents update ${caller.agentId} --file AGENT.json)`
      : `this caller may use only the servers it was given; call ${toolName === undefined ? 'its tools' : `"${toolName}"`} as an app or agent that selects "${id}"`;
    return refuse('NOT_GRANTED', `${toolName === undefined ? named : `"${toolName}" of server "${id}"`} is not among the servers selected for this caller`, fix);
  }
  return ACCESS_OK;
}

function refuse(code: AccessCode, reason: string, fix: string): AccessRefusal {
  return { ok: false, code, reason, fix };
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
