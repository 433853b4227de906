// The canvas's MCP server (docs/rules/canvas.md#tools): patch_ui_state, get_schema and
// list_instances over one store per data folder, and the MCP App view that
// shows their results (viewResource.mjs). Built on the v2 server package's
// low-level Server, so that every bad argument, whatever its shape, comes
// back as a result with one of the codes of docs/rules/canvas.md#error-codes (McpServer would
// answer a wrong type with its own generic validation error first), and so
// that it speaks both protocol eras: 2026-07-28 statelessly (server/discover,
// `_meta` on every request) and 2025 over initialize (server.mjs serves each).
import * as path from 'node:path';
import { ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { DEFAULT_INSTANCE, getSchema, listInstances } from './engine.mjs';
import { CallerSchema } from './historyFile.mjs';
import { CanvasStore } from './store.mjs';
import { readView, toolMeta, VIEW_RESOURCE } from './viewResource.mjs';
import { GetSchemaCallSchema, GetSchemaResultSchema, ListInstancesResultSchema, PatchCallSchema, PatchResultSchema } from './uiSchema.mjs';

export const SERVER_NAME = 'chatos.canvas.canvas';
export const SERVER_VERSION = '0.1.0';

/** JSON Schema from zod, without `$schema` (clients validate with draft-07 validators that reject the 2020-12 key). */
function jsonSchema(schema, io) {
  const { $schema, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest;
}

export const TOOLS = [
  {
    name: 'patch_ui_state',
    title: 'Patch the UI',
    description:
      'The only way to change the UI: applies structured patches to one instance, in order, all or nothing. ' +
      'Ops: set (any value path), add (blocks+, actions+), replace (blocks, actions and their items), remove (blocks-"id", actions-"id"), clear (state.params, state.runtime). ' +
      'instance_id "__CREATE__" with new_instance_id creates an instance; "__DELETE__" with target_instance_id and no patches deletes one. ' +
      'Errors carry a code (INVALID_INSTANCE, INVALID_OP, INVALID_PATH, PATH_NOT_FOUND, SCHEMA_MUTATION, MISSING_VALUE, DUPLICATE_ID, INSTANCE_EXISTS, INVALID_STRUCTURE) and say what is allowed.',
    inputSchema: jsonSchema(PatchCallSchema, 'input'),
    outputSchema: jsonSchema(PatchResultSchema, 'output'),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    _meta: toolMeta(),
  },
  {
    name: 'get_schema',
    title: 'Read a UI instance',
    description: `The current UI schema of an instance (meta, state, layout, blocks, actions) and its revision; default instance "${DEFAULT_INSTANCE}".`,
    inputSchema: jsonSchema(GetSchemaCallSchema, 'input'),
    outputSchema: jsonSchema(GetSchemaResultSchema, 'output'),
    annotations: { readOnlyHint: true, openWorldHint: false },
    _meta: toolMeta(),
  },
  {
    name: 'list_instances',
    title: 'List UI instances',
    description: 'Every UI instance: id, page key, status, how many blocks and actions, revision.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema: jsonSchema(ListInstancesResultSchema, 'output'),
    annotations: { readOnlyHint: true, openWorldHint: false },
    _meta: toolMeta(),
  },
];

const text = (line) => [{ type: 'text', text: line }];

function errorResult(instanceId, error) {
  const where = [error.patch_index === undefined ? '' : ` in patches[${error.patch_index}]`, error.path === undefined ? '' : ` (path ${JSON.stringify(error.path)})`].join('');
  return {
    content: text(`${error.code}${where}: ${error.message}`),
    structuredContent: { status: 'error', instance_id: typeof instanceId === 'string' ? instanceId : '', error },
    isError: true,
  };
}

function describeSchema(schema) {
  const blocks = schema.blocks.map((b) => `${b.id} (${b.type}, ${b.props.fields.length} field${b.props.fields.length === 1 ? '' : 's'})`).join(', ') || 'none';
  const actions = schema.actions.map((a) => `${a.id} (${a.style})`).join(', ') || 'none';
  return `status ${schema.meta.status}, step ${schema.meta.step.current}/${schema.meta.step.total}; blocks: ${blocks}; actions: ${actions}`;
}

function patchSummary(result) {
  if (result.deleted) return `Deleted instance "${result.instance_id}".`;
  const did = result.created ? `Created instance "${result.instance_id}"` : `Applied ${result.applied} patch${result.applied === 1 ? '' : 'es'} to "${result.instance_id}"`;
  return `${did}: revision ${result.revision}; ${describeSchema(result.schema)}. Call get_schema for the whole schema.`;
}

const SAFE = /^[\w.:@-]{1,128}$/;

/**
 * Who sent a call. ChatOS tells its built-in plugins in `_meta.chatos.caller`
 * (third-party servers are never told); anything else is named by the MCP
 * client's own name. Only known fields, only short plain strings.
 */
export function callerOf(meta, clientName) {
  const told = meta?.chatos?.caller;
  if (told && typeof told === 'object') {
    const picked = Object.fromEntries(
      ['kind', 'agentId', 'appId', 'conversationId', 'flow'].filter((k) => Object.hasOwn(told, k) && typeof told[k] === 'string' && SAFE.test(told[k])).map((k) => [k, told[k]]),
    );
    const parsed = CallerSchema.safeParse(picked);
    if (parsed.success) return parsed.data;
  }
  return typeof clientName === 'string' && clientName ? { kind: 'client', name: clientName.slice(0, 128) } : { kind: 'client' };
}

/**
 * Where a call's instances live. Over stdio the one client is the process
 * that started this server (ChatOS names the app's data folder in
 * `_meta.chatos.uiApp.dataDir`, else `_meta.workdir`), so a folder it names
 * is used; otherwise, and always when `metaFolders` is false (a network
 * server: any local process may call it), the folder the server was started
 * with. A caller never picks where a standalone server writes.
 */
export function dataDirOf(meta, fallbackDir, metaFolders = true) {
  if (!metaFolders) return fallbackDir;
  const dir = meta?.chatos?.uiApp?.dataDir ?? meta?.workdir;
  return typeof dir === 'string' && path.isAbsolute(dir) ? dir : fallbackDir;
}

/**
 * A server over stores shared by every connection of this process (one per
 * data folder), so calls from several clients still apply one at a time.
 * `metaFolders`: whether a call's `_meta` may name the data folder (stdio
 * only, see dataDirOf).
 * @param {{ stores: Map<string, CanvasStore>, fallbackDir: string, metaFolders: boolean }} context
 */
export function createCanvasServer({ stores, fallbackDir, metaFolders }) {
  const server = new Server({ name: SERVER_NAME, version: SERVER_VERSION }, { capabilities: { tools: {}, resources: {} } });
  const storeFor = (meta) => {
    const dir = path.resolve(dataDirOf(meta, fallbackDir, metaFolders));
    let store = stores.get(dir);
    if (!store) stores.set(dir, (store = new CanvasStore(dir)));
    return store;
  };

  server.setRequestHandler('tools/list', () => ({ tools: TOOLS }));
  // The view is listed as well as linked from the tools, so a host can fetch and review it before any call.
  server.setRequestHandler('resources/list', () => ({ resources: [VIEW_RESOURCE] }));
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [] }));
  server.setRequestHandler('resources/read', (request) => readView(request.params.uri));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    // The request's `_meta` (where ChatOS names the data folder and the caller): on the handler's context in the v2 package.
    const { name, arguments: args = {} } = request.params;
    const meta = request.params._meta ?? ctx?.mcpReq?._meta;
    const store = storeFor(meta);
    if (name === 'patch_ui_state') {
      // The client's name: in each 2026-07-28 request's envelope (no initialize said it), else what initialize said.
      const clientName = ctx?.mcpReq?.envelope?.['io.modelcontextprotocol/clientInfo']?.name ?? server.getClientVersion()?.name;
      const outcome = await store.patch(args, callerOf(meta, clientName));
      if (!outcome.ok) return errorResult(args.instance_id, outcome.error);
      return { content: text(patchSummary(outcome.result)), structuredContent: outcome.result };
    }
    if (name === 'get_schema') {
      const instanceId = args.instance_id ?? DEFAULT_INSTANCE;
      const outcome = await store.read((state) => (typeof instanceId === 'string' ? getSchema(state, instanceId) : getSchema(state, '')));
      if (!outcome.ok) return errorResult(instanceId, outcome.error);
      const { result } = outcome;
      return { content: text(`Instance "${result.instance_id}", revision ${result.revision}: ${describeSchema(result.schema)}.\n${JSON.stringify(result.schema)}`), structuredContent: result };
    }
    if (name === 'list_instances') {
      const result = await store.read(listInstances);
      const count = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
      const lines = result.instances.map((i) => `- ${i.instance_id} (page ${i.page_key}, ${i.status}, ${count(i.blocks_count, 'block')}, ${count(i.actions_count, 'action')}, revision ${i.revision})`);
      return { content: text(`${result.total} instance${result.total === 1 ? '' : 's'}:\n${lines.join('\n')}`), structuredContent: result };
    }
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown tool "${name}"; tools: ${TOOLS.map((t) => t.name).join(', ')}`);
  });
  return server;
}
