/**
 * Adapter for the official MCP client conformance suite
 * (`@modelcontextprotocol/conformance client --command "node dist/scripts/conformanceClient.js" --scenario …`).
 *
 * The suite starts a scenario server and runs this script with the server's
 * URL as the last argument (and the scenario's name in
 * MCP_CONFORMANCE_SCENARIO). The script connects with the host's OWN
 * connection code (a streamable_http ServerDefinition through
 * ServerConnection: initialize, tools/list), calls every tool the server
 * lists with arguments made from its input schema, prints what it got, and
 * closes. What the suite checks is the traffic the server saw: the
 * initialize handshake (`initialize`), that `add_numbers` was called
 * (`tools_call`), and that a tools/call whose SSE stream closes is resumed
 * with a GET carrying Last-Event-ID after the server's `retry` delay
 * (`sse-retry`). Exits non-zero if anything fails, so the suite reports it.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { ServerConnection } from '../src/core/mcp/connection/serverConnection.js';
import { ServerLog } from '../src/core/process/serverLog.js';
import type { ServerDefinition } from '../src/shared/mcp.js';
import { RUN_ALLOWED } from '../src/core/policy/runGate.js';

const CALL_TIMEOUT_MS = 10_000;

/** The definition the host would build from an mcp.yaml `transport: streamable_http` entry with this url. */
export function conformanceDefinition(url: string): ServerDefinition {
  return {
    id: 'chatos::conformance',
    name: 'conformance',
    providerAppId: 'chatos',
    origin: 'mcp.yaml',
    category: 'external',
    transport: { kind: 'streamable_http', url, headers: {} },
    trulyStateless: true,
    tools: { whitelist: [], blacklist: [] },
    transform: [],
    allowMain: true,
    allowSub: true,
    timeoutMs: CALL_TIMEOUT_MS,
    permissions: [],
    disabledTools: [],
    disabled: false,
    meta: {},
  };
}

type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; required?: string[]; enum?: unknown[]; default?: unknown; items?: JsonSchema };

/** A plausible value for a JSON schema: the default or first enum value if there is one, else a small value of its type. */
function sampleValue(schema: JsonSchema | undefined, index: number): unknown {
  if (!schema) return null;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'number':
    case 'integer':
      return index + 2; // distinct small numbers: add_numbers(2, 3)
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return sampleArguments(schema);
    case 'null':
      return null;
    default:
      return 'conformance';
  }
}

export function sampleArguments(schema: JsonSchema | Tool['inputSchema']): Record<string, unknown> {
  const s = schema as JsonSchema;
  const args: Record<string, unknown> = {};
  Object.entries(s.properties ?? {}).forEach(([key, property], index) => {
    args[key] = sampleValue(property, index);
  });
  return args;
}

async function main(): Promise<number> {
  const url = process.argv[process.argv.length - 1];
  if (!url || !/^https?:\/\//.test(url)) {
    console.error('usage: conformanceClient <server url>');
    return 2;
  }
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '(none)';
  const log = new ServerLog();
  const connection = new ServerConnection(conformanceDefinition(url), {
    log,
    hostEnv: process.env,
    clientInfo: { name: 'chatos', version: '0.1.0' },
    now: () => Date.now(),
    // A url the user passed, not a plugin's: nothing for the run gate to refuse.
    gate: () => RUN_ALLOWED,
  });
  let failed = false;
  try {
    await connection.start();
    console.log(`[${scenario}] connected to ${url}; ${connection.tools.length} tool(s): ${connection.tools.map((t) => t.name).join(', ') || '-'}`);
    for (const tool of connection.tools) {
      const args = sampleArguments(tool.inputSchema);
      const result = await connection.callTool(tool.name, args, {});
      console.log(`[${scenario}] ${tool.name}(${JSON.stringify(args)}) -> ${JSON.stringify(result.content)}`);
      if (result.isError) failed = true;
    }
  } catch (error) {
    failed = true;
    console.error(`[${scenario}] failed: ${(error as Error).stack ?? String(error)}`);
    for (const entry of log.tail(20)) console.error(`  log ${entry.stream}: ${entry.text}`);
  } finally {
    await connection.close(0);
  }
  return failed ? 1 : 0;
}

process.exitCode = await main();
