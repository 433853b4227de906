import {
  Client as V2Client,
  type ClientCapabilities as V2Capabilities,
  type DiscoverResult,
  type McpSubscription,
  type NotificationMethod,
  type RequestMethod,
  type SubscriptionFilter,
  type Transport as V2Transport,
} from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { isPlainObject } from '../../plainObject.js';
import type { McpWire } from './mcpWire.js';

/** The one 2026 revision the host speaks statelessly; older servers are spoken to over `initialize` (the v1 SDK). */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/**
 * How many rounds of `input_required` one request may take (docs/rules/mcp-yaml.md#protocol-eras): each round
 * is a question answered and the request sent again; a server that asks on without end fails the call instead.
 */
export const MAX_INPUT_ROUNDS = 8;

/**
 * The largest `requestState` the host keeps and sends back: it is the server's own state, carried by the client
 * between rounds, so it has no reason to be large; a bigger one fails the call (the message bound of 4 MiB is
 * the outer limit of any answer).
 */
export const MAX_REQUEST_STATE_BYTES = 256 * 1024;

const INTERNAL_ERROR = -32603;

/** The list-changed notifications a listen stream can carry: the capability that declares each, and its filter field. */
const LIST_CHANGES = [
  { capability: 'tools', method: 'notifications/tools/list_changed', flag: 'toolsListChanged' },
  { capability: 'prompts', method: 'notifications/prompts/list_changed', flag: 'promptsListChanged' },
  { capability: 'resources', method: 'notifications/resources/list_changed', flag: 'resourcesListChanged' },
] as const;

/** `uris` with `uri` added (subscribed) or taken out. */
function withUri(uris: ReadonlySet<string>, uri: string, subscribed: boolean): Set<string> {
  const next = new Set(uris);
  if (subscribed) next.add(uri);
  else next.delete(uri);
  return next;
}

type Message = Parameters<NonNullable<V2Transport['onmessage']>>[0];

/**
 * One answer of the 2026 wire as the host takes it: a result without `resultType` is `complete` (SEP-2322: the
 * client MUST assume so; the SDK refuses it instead), and an `input_required` that is malformed (see
 * malformedInput) or whose `requestState` is larger than MAX_REQUEST_STATE_BYTES becomes an error that names the
 * server, so the call ends at once.
 */
export function hostReadOf(message: Message, serverId: string): Message {
  if (!('result' in message) || !('id' in message)) return message;
  const result = message.result as Record<string, unknown>;
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return message;
  if (!Object.hasOwn(result, 'resultType')) return { ...message, result: { ...result, resultType: 'complete' } } as Message;
  if (result.resultType !== 'input_required') return message;
  const malformed = malformedInput(result);
  if (malformed) return errorOf(message.id, `server "${serverId}" answered input_required that is not one: ${malformed}; the call ends`);
  const state = result.requestState;
  if (typeof state === 'string' && Buffer.byteLength(state) > MAX_REQUEST_STATE_BYTES) {
    const size = Math.ceil(Buffer.byteLength(state) / 1024);
    return errorOf(message.id, `server "${serverId}" sent a requestState of ${size} KiB, more than the ${MAX_REQUEST_STATE_BYTES / 1024} KiB a client carries between rounds; the call ends`);
  }
  return message;
}

/**
 * What makes an `input_required` result malformed, if anything: `inputRequests` must be a map of requests and
 * `requestState` a string, and at least one of them is there (2026-07-28). The SDK would take a malformed one
 * for a round with nothing asked and send the call again, up to MAX_INPUT_ROUNDS times, then blame the rounds.
 */
function malformedInput(result: Record<string, unknown>): string | undefined {
  const { inputRequests, requestState } = result;
  if (inputRequests !== undefined && !isPlainObject(inputRequests)) return 'its inputRequests is not a map of requests';
  if (requestState !== undefined && typeof requestState !== 'string') return 'its requestState is not a string';
  if (inputRequests === undefined && requestState === undefined) return 'it has neither inputRequests nor requestState';
  return undefined;
}

/** The error the SDK receives in place of an answer the host does not take: the request it answers fails with it. */
const errorOf = (id: unknown, text: string): Message => ({ jsonrpc: '2.0', id, error: { code: INTERNAL_ERROR, message: text } }) as Message;

/** The method a v1 zod request/notification schema is for (its `method` literal), which the v2 client registers by. */
function methodOf(schema: unknown): string {
  const method = (schema as { shape?: { method?: { value?: unknown } } }).shape?.method?.value;
  if (typeof method !== 'string') throw new TypeError('a handler schema without a method literal');
  return method;
}

/** The v1 request options the host builds, as the v2 client takes them (the same fields). */
const v2Options = (options?: RequestOptions) => (options ? { signal: options.signal, timeout: options.timeout, onprogress: options.onprogress } : undefined);

/**
 * One connection to a server that speaks 2026-07-28, over the TypeScript SDK's
 * v2 client (`@modelcontextprotocol/client`): no `initialize` and no session;
 * the client sends `server/discover` as it connects (pinned to 2026-07-28, so
 * a server that does not offer it fails the probe and the host speaks
 * `initialize` to it instead), puts the protocol version, client capabilities
 * and client info in every request's `_meta` and the `MCP-Protocol-Version` /
 * `Mcp-Method` / `Mcp-Name` headers on every POST, and answers a call's
 * `input_required` result through the handlers the host's features registered
 * (elicitation, sampling, roots: the same services as the server→client
 * requests of 2025), sending the answers back with the server's `requestState`,
 * at most MAX_INPUT_ROUNDS times.
 *
 * It offers the host's McpWire seam with the v1 client's method names and
 * types: the results are the same JSON on the wire, read by the same host code.
 */
export class ModernClient implements McpWire {
  readonly sdk: V2Client;

  constructor(
    info: { name: string; version: string },
    capabilities: ClientCapabilities,
    private readonly serverId: string,
  ) {
    this.sdk = new V2Client(info, {
      // The v1 shape of the capabilities is the wire's; the v2 type names 2026 fields the host does not declare yet.
      capabilities: capabilities as V2Capabilities,
      versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } },
      inputRequired: { maxRounds: MAX_INPUT_ROUNDS },
    });
  }

  /**
   * A request the server sent on this connection, where the 2026 wire has none (its questions come inside a
   * result, `input_required`): a server that mixes the eras. The SDK drops such a request unanswered; this
   * tells the host, which ends the calls waiting on it rather than let them wait for their timeout.
   */
  onEraMix: ((method: string) => void) | undefined;

  /** The server refused the listen stream the host opens as it connects (its list changes go unheard): the host logs why. */
  onListenRefused: ((why: string) => void) | undefined;

  /**
   * Connects over `transport`; `discovered` is the server's `server/discover` result when the host asked it
   * already (a local server, probed on its own process), so the SDK adopts it instead of asking again.
   */
  async connect(transport: V2Transport, options?: RequestOptions, discovered?: DiscoverResult): Promise<void> {
    await this.sdk.connect(transport, { ...v2Options(options), ...(discovered ? { prior: { kind: 'modern' as const, discover: discovered } } : {}) });
    // Every answer after the discovery passes the host's reading first (hostReadOf); the SDK set its handler as it connected.
    const deliver = transport.onmessage;
    if (deliver)
      transport.onmessage = (message, extra) => {
        if ('method' in message && 'id' in message) this.onEraMix?.(message.method);
        deliver(hostReadOf(message, this.serverId), extra);
      };
    // A 2026 server sends its list changes only on a stream that asked for them: ask now, before the host's first
    // list, so a change from then on is heard. A server that refuses the stream still answers calls and lists: its
    // lists are then as fresh as the last time the host asked, and its log says why.
    if (Object.keys(this.listChanges()).length)
      await this.changeListen(() => new Set(this.subscribed), options).catch((error: unknown) => this.onListenRefused?.(error instanceof Error ? error.message : String(error)));
  }

  /** The negotiated revision (2026-07-28 once connected). */
  get protocolVersion(): string | undefined {
    return this.sdk.getNegotiatedProtocolVersion();
  }

  /** A request of the server's (`input_required`'s embedded requests) answered by `handler`. */
  onRequest(schema: unknown, handler: (request: { method: string; params?: unknown }, signal: AbortSignal) => Promise<unknown>): void {
    const method = methodOf(schema) as RequestMethod;
    this.sdk.setRequestHandler(method, ((request: { method: string; params?: unknown }, ctx: { mcpReq: { signal: AbortSignal } }) => handler(request, ctx.mcpReq.signal)) as never);
  }

  /** The notification methods the host's features hear: the listen stream asks only for list changes one of them hears. */
  private readonly heard = new Set<string>();

  /** The v2 client has checked the notification against its own schema of the method already. */
  setNotificationHandler: Client['setNotificationHandler'] = (schema, handler) => {
    const method = methodOf(schema);
    this.heard.add(method);
    this.sdk.setNotificationHandler(method as NotificationMethod, handler as never);
  };

  listTools: Client['listTools'] = async (params, options) => (await this.sdk.listTools(params, v2Options(options))) as Awaited<ReturnType<Client['listTools']>>;

  callTool: Client['callTool'] = async (params, resultSchema, options) => {
    const result = await this.sdk.callTool(params, v2Options(options));
    return (resultSchema ? resultSchema.parse(result) : result) as Awaited<ReturnType<Client['callTool']>>;
  };

  getServerCapabilities: Client['getServerCapabilities'] = () => this.sdk.getServerCapabilities() as ReturnType<Client['getServerCapabilities']>;

  getInstructions: Client['getInstructions'] = () => this.sdk.getInstructions();

  setLoggingLevel: Client['setLoggingLevel'] = async (level, options) => this.sdk.setLoggingLevel(level, v2Options(options));

  readResource: Client['readResource'] = async (params, options) => (await this.sdk.readResource(params, v2Options(options))) as Awaited<ReturnType<Client['readResource']>>;

  listResources: Client['listResources'] = async (params, options) => (await this.sdk.listResources(params, v2Options(options))) as Awaited<ReturnType<Client['listResources']>>;

  listResourceTemplates: Client['listResourceTemplates'] = async (params, options) =>
    (await this.sdk.listResourceTemplates(params, v2Options(options))) as Awaited<ReturnType<Client['listResourceTemplates']>>;

  /**
   * One `subscriptions/listen` stream per connection carries every notification the host asks a 2026 server for
   * (docs/using/resources.md#subscriptions): the list changes of what the server declares `listChanged` for, and
   * the resources subscribed to (2026-07-28 has no `resources/subscribe`). What arrives on it reaches the same
   * notification handlers a 2025 server's unsolicited notifications do, so the host's tools, prompts and
   * resources features (and their re-lists) are era-blind.
   */
  private readonly subscribed = new Set<string>();
  private listening: McpSubscription | undefined;
  /** One change of the stream at a time: two subscriptions asked at once must not each open a stream of their own. */
  private listenChange: Promise<unknown> = Promise.resolve();

  subscribeResource: Client['subscribeResource'] = (params, options) => this.changeListen(() => withUri(this.subscribed, params.uri, true), options, params.uri);

  unsubscribeResource: Client['unsubscribeResource'] = (params, options) => this.changeListen(() => withUri(this.subscribed, params.uri, false), options);

  /** `uris` is read when the change before this one is done: the set it starts from is the one that change left. */
  private changeListen(uris: () => ReadonlySet<string>, options?: RequestOptions, asked?: string): Promise<Record<string, never>> {
    const change = this.listenChange.then(() => this.relisten(uris(), options, asked));
    this.listenChange = change.catch(() => {});
    return change;
  }

  /**
   * The list changes to ask for: each list the server declares `listChanged` for and a feature of the host hears
   * (the server MUST NOT send what was not asked, and what no one hears is not worth a message).
   */
  private listChanges(): SubscriptionFilter {
    const declared = this.sdk.getServerCapabilities() ?? {};
    const filter: SubscriptionFilter = {};
    for (const { capability, method, flag } of LIST_CHANGES) {
      const list = declared[capability] as { listChanged?: unknown } | undefined;
      if (list?.listChanged === true && this.heard.has(method)) filter[flag] = true;
    }
    return filter;
  }

  /**
   * Opens the stream for the new set of URIs (with the list changes) before the old one closes, so no
   * notification falls between the two; a server that does not honor the URI `asked` for refuses the
   * subscription (as a 2025 server's error would), and the old stream stays.
   */
  private async relisten(uris: ReadonlySet<string>, options?: RequestOptions, asked?: string): Promise<Record<string, never>> {
    const filter: SubscriptionFilter = { ...this.listChanges(), ...(uris.size ? { resourceSubscriptions: [...uris] } : {}) };
    const previous = this.listening;
    // Only the ack waits on the request's time: the stream outlives the request that opened it, so not its signal.
    const next = Object.keys(filter).length ? await this.sdk.listen(filter, { timeout: options?.timeout }) : undefined;
    if (asked !== undefined && next && !next.honoredFilter.resourceSubscriptions?.includes(asked)) {
      await next.close();
      throw new Error(`server "${this.serverId}" did not take the subscription to ${asked} (subscriptions/listen)`);
    }
    this.listening = next;
    this.subscribed.clear();
    for (const kept of uris) this.subscribed.add(kept);
    await previous?.close();
    return {};
  }

  complete: Client['complete'] = async (params, options) => (await this.sdk.complete(params, v2Options(options))) as Awaited<ReturnType<Client['complete']>>;

  listPrompts: Client['listPrompts'] = async (params, options) => (await this.sdk.listPrompts(params, v2Options(options))) as Awaited<ReturnType<Client['listPrompts']>>;

  getPrompt: Client['getPrompt'] = async (params, options) => (await this.sdk.getPrompt(params, v2Options(options))) as Awaited<ReturnType<Client['getPrompt']>>;

  sendRootsListChanged: Client['sendRootsListChanged'] = () => this.sdk.sendRootsListChanged();

  close: Client['close'] = () => this.sdk.close();
}
