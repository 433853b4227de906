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
 *
 * The auth scenarios (`auth/…`) sit behind the MCP authorization flow. The
 * adapter does what the host does: a connection or call that ends in
 * SIGN_IN_NEEDED is followed by the host's sign-in (OAuthService.signIn:
 * discovery, registration, PKCE, the loopback redirect, the token), then
 * tried again. Where a person would approve in the browser, the adapter
 * plays the browser: it opens the authorization url, and takes the
 * authorization server's redirect back to the host's loopback listener.
 * Tokens go to a key store in a temporary folder. The scenario's context
 * (MCP_CONFORMANCE_CONTEXT) gives a pre-registered client id and secret,
 * which a user would write under the server's `oauth:` in mcp.yaml.
 *
 * Elicitation (`elicitation-sep1034-client-defaults`): the connection has
 * the host's own elicitation feature, request policy and ElicitationService;
 * each call is registered as in flight, as the gateway does, so the server
 * may ask during it. Where a person would answer, the adapter accepts the
 * form as presented: every field at its default (formDefaults, what a face
 * prefills).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { ServerConnection } from '../src/core/mcp/connection/serverConnection.js';
import { McpRuntimeError } from '../src/core/mcp/mcpRuntimeError.js';
import { OAuthService } from '../src/core/mcp/auth/oauthService.js';
import { oauthTargetOf } from '../src/core/mcp/auth/oauthTarget.js';
import { ServerLog } from '../src/core/process/serverLog.js';
import { FileSecretStore } from '../src/core/secrets/fileSecretStore.js';
import type { OAuthClientConfig, ServerDefinition } from '../src/shared/mcp.js';
import { RUN_ALLOWED } from '../src/core/policy/runGate.js';
import { ClientFeatures, toolsFeature } from '../src/core/mcp/client/clientFeatures.js';
import { elicitationFeature } from '../src/core/elicitation/elicitationFeature.js';
import { QuestionBroker } from '../src/core/questions/questionBroker.js';
import { ElicitationService } from '../src/core/elicitation/elicitationService.js';
import { ServerRequestPolicy } from '../src/core/policy/serverRequestPolicy.js';
import { ServerCallers } from '../src/core/tools/serverCallers.js';
import { systemScheduler } from '../src/core/ports.js';
import { formDefaults } from '../src/shared/elicitation.js';

const CALL_TIMEOUT_MS = 10_000;
/** Sign-ins one run may make (the first, and steps up); the host's own step-up limit should stop it sooner. */
const MAX_SIGN_INS = 3;
/** The client ID metadata document url the suite's authorization server accepts (auth/basic-cimd). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/** What the suite passes in MCP_CONFORMANCE_CONTEXT: a pre-registered client id and secret, or the tool calls to make. */
function conformanceContext(): { client_id?: unknown; client_secret?: unknown; toolCalls?: unknown } {
  try {
    return JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as ReturnType<typeof conformanceContext>;
  } catch {
    return {}; // No context: nothing pre-registered, no calls named.
  }
}

/** The calls the scenario names in its context (http-custom-headers: the values whose headers it checks), if it names any. */
function contextToolCalls(): { name: string; arguments: Record<string, unknown> }[] | undefined {
  const { toolCalls } = conformanceContext();
  if (!Array.isArray(toolCalls)) return undefined;
  return toolCalls.filter((call): call is { name: string; arguments: Record<string, unknown> } => typeof call?.name === 'string' && typeof call?.arguments === 'object' && call.arguments !== null);
}

/** The suite's echo tool (json-schema-2020-12-preservation) is given the other tool's inputSchema as the host listed it, so the suite sees what the host kept of it. */
const ECHO_TOOL = 'json_schema_echo';

/** The calls to make: the context's, else every listed tool with arguments made from its schema. */
function callsFor(tools: readonly Tool[]): { name: string; arguments: Record<string, unknown> }[] {
  const named = contextToolCalls();
  if (named) return named;
  const echoed = tools.find((tool) => tool.name !== ECHO_TOOL)?.inputSchema;
  return tools.map((tool) => ({ name: tool.name, arguments: tool.name === ECHO_TOOL && echoed ? { schema: echoed } : sampleArguments(tool.inputSchema) }));
}

/** A server that has no tools/call at all (json-schema-ref-no-deref only lists): the client did its part. */
const METHOD_NOT_FOUND = -32601;

function contextOAuth(): OAuthClientConfig {
  const context = conformanceContext();
  return {
    clientMetadataUrl: CLIENT_METADATA_URL,
    ...(typeof context.client_id === 'string' ? { clientId: context.client_id } : {}),
    ...(typeof context.client_secret === 'string' ? { clientSecret: context.client_secret } : {}),
  };
}

/** The definition the host would build from an mcp.yaml `transport: streamable_http` entry with this url (and `oauth:`). */
export function conformanceDefinition(url: string, oauth?: OAuthClientConfig): ServerDefinition {
  return {
    id: 'chatos::conformance',
    name: 'conformance',
    providerAppId: 'chatos',
    origin: 'mcp.yaml',
    category: 'external',
    transport: { kind: 'streamable_http', url, headers: {}, ...(oauth ? { oauth } : {}) },
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
  const keys = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-conformance-keys-'));
  const oauth = new OAuthService({ secrets: new FileSecretStore(path.join(keys, 'secrets.json'), { logger: console }), now: () => Date.now() });
  const definition = conformanceDefinition(url, contextOAuth());
  const callers = new ServerCallers();
  const broker = new QuestionBroker({ scheduler: systemScheduler, audit: (event) => console.log(`[${scenario}] audit: ${JSON.stringify(event)}`) });
  const elicitations = new ElicitationService({ scheduler: systemScheduler, broker });
  // The user: accepts each form as it is first shown (its defaults), and each url.
  broker.on(({ change, question }) => {
    if (change !== 'asked' || question.kind !== 'elicitation') return;
    const { request } = question;
    console.log(`[${scenario}] ${request.serverName} asks (${request.mode}): ${request.message}`);
    broker.respond(request.id, { kind: 'elicitation', action: 'accept', ...(request.mode === 'form' ? { content: formDefaults(request.fields) } : {}) });
  });
  const policy = new ServerRequestPolicy({ callers, granted: () => true, runnable: () => RUN_ALLOWED });
  const lease = 'conformance';
  const caller = { appId: 'chatos', conversationId: lease, flow: 'main' as const };
  const connection = new ServerConnection(definition, {
    log,
    hostEnv: process.env,
    clientInfo: { name: 'chatos', version: '0.1.0' },
    now: () => Date.now(),
    // A url the user passed, not a plugin's: nothing for the run gate to refuse.
    gate: () => RUN_ALLOWED,
    oauth,
    features: new ClientFeatures([toolsFeature, elicitationFeature(elicitations, callers)], policy),
    lease,
  });
  let signIns = 0;
  /** Runs `step`; when it needs sign-in, signs in as the user would (the adapter playing the browser) and runs it again. */
  const signedIn = async <T>(step: () => Promise<T>): Promise<T> => {
    for (;;) {
      try {
        return await step();
      } catch (error) {
        if (!(error instanceof McpRuntimeError) || error.code !== 'SIGN_IN_NEEDED' || signIns >= MAX_SIGN_INS) throw error;
        signIns++;
        console.log(`[${scenario}] sign-in ${signIns}: ${error.message}`);
        await oauth.signIn(await oauthTargetOf(definition, process.env, undefined), { openBrowser: playBrowser });
      }
    }
  };
  let failed = false;
  try {
    await signedIn(() => connection.start());
    console.log(`[${scenario}] connected to ${url}; ${connection.tools.length} tool(s): ${connection.tools.map((t) => t.name).join(', ') || '-'}`);
    console.log(`[${scenario}] protocol: ${JSON.stringify(connection.protocol)}`);
    for (const call of callsFor(connection.tools)) {
      const end = callers.begin(definition.id, lease, caller);
      try {
        const result = await signedIn(() => connection.callTool(call.name, call.arguments, {})).finally(end);
        console.log(`[${scenario}] ${call.name}(${JSON.stringify(call.arguments)}) -> ${JSON.stringify(result.content)}`);
        if (result.isError) failed = true;
      } catch (error) {
        // The host reports a server's JSON-RPC error as a ServerRpcError with the server's code (rpcCode).
        if ((error as { rpcCode?: unknown }).rpcCode !== METHOD_NOT_FOUND) throw error;
        console.log(`[${scenario}] ${call.name}: the server has no tools/call (${(error as Error).message})`);
      }
    }
  } catch (error) {
    failed = true;
    const fix = error instanceof McpRuntimeError && error.fix ? `\n  fix: ${error.fix}` : '';
    console.error(`[${scenario}] failed: ${(error as Error).stack ?? String(error)}${fix}`);
    for (const entry of log.tail(20)) console.error(`  log ${entry.stream}: ${entry.text}`);
  } finally {
    await connection.close(0);
    fs.rmSync(keys, { recursive: true, force: true });
  }
  return failed ? 1 : 0;
}

/**
 * The browser, where a person would approve: the suite's authorization
 * server answers the authorization url with a redirect to the host's
 * loopback redirect_uri, which is followed like a browser would, once.
 */
async function playBrowser(authorizationUrl: URL): Promise<void> {
  const answer = await fetch(authorizationUrl, { redirect: 'manual' });
  await answer.body?.cancel();
  const location = answer.headers.get('location');
  if (!location) throw new Error(`the authorization server answered ${answer.status} without a redirect`);
  const back = await fetch(new URL(location, authorizationUrl), { redirect: 'manual' });
  await back.body?.cancel();
}

process.exitCode = await main();
