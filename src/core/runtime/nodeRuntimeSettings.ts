import { z } from 'zod';
import { NodeRuntimeChoiceSchema, type NodeRuntimeChoice, type ServerDefinition } from '../../shared/mcp.js';
import type { Problem } from '../../shared/problems.js';
import { ownRecord, ownValue } from '../../shared/ownKeys.js';
import { parseConfigBlock } from '../problems/configBlock.js';
import { isBareNode } from './nodeRuntime.js';

/**
 * `nodeRuntime:` in mcp.yaml, the host's setting for servers whose command
 * is `node`: a default for all of them, and a choice per server by its
 * registry id, for the servers mcp.yaml does not define (built-in and user
 * plugins, bundled defaults). An mcp.yaml server sets its own with the
 * entry's `nodeRuntime` field, which wins.
 *
 *   nodeRuntime:
 *     default: auto            # system | bundled | auto
 *     servers:
 *       "com.example.notes::notes": bundled
 */
export const NodeRuntimeSettingsSchema = z
  .object({
    default: NodeRuntimeChoiceSchema.optional(),
    // Keys are server ids from outside: no prototype.
    servers: ownRecord(NodeRuntimeChoiceSchema).optional(),
  })
  .strict();
export type NodeRuntimeSettings = z.infer<typeof NodeRuntimeSettingsSchema>;

const HINT = 'write e.g. "nodeRuntime: { default: auto, servers: { \'<plugin>::<server>\': bundled } }", each choice one of system, bundled, auto';

/** The block as written (absent: nothing set); a broken block is an error on its path and sets nothing. */
export function parseNodeRuntimeSettings(raw: unknown, document: unknown, file: string): { settings: NodeRuntimeSettings; problems: Problem[] } {
  return parseConfigBlock(NodeRuntimeSettingsSchema, 'nodeRuntime', raw, document, file, 'MCP_NODE_RUNTIME_INVALID', HINT);
}

/** The choice in effect for a server: its own (an mcp.yaml entry's), else the block's for its id, else the block's default. */
export function nodeRuntimeChoice(definition: ServerDefinition, settings: NodeRuntimeSettings): NodeRuntimeChoice | undefined {
  if (definition.transport.kind !== 'stdio') return undefined;
  return definition.transport.nodeRuntime ?? ownValue(settings.servers, definition.id) ?? settings.default;
}

/**
 * The definition with its choice written into its transport, so a changed
 * choice is a changed definition (hot reload restarts the server). Left as
 * it is when nothing is set or the command is not a bare `node`, so the
 * definitions of servers that do not ask are as before.
 */
export function withNodeRuntime(definition: ServerDefinition, settings: NodeRuntimeSettings): ServerDefinition {
  const { transport } = definition;
  if (transport.kind !== 'stdio' || !isBareNode(transport.command)) return definition;
  const choice = nodeRuntimeChoice(definition, settings);
  if (choice === undefined || choice === transport.nodeRuntime) return definition;
  return { ...definition, transport: { ...transport, nodeRuntime: choice } };
}
