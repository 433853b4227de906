import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError, ErrorCode, isTaskAugmentedRequestParams, type ClientCapabilities, type Notification, type Request, type Result } from '@modelcontextprotocol/sdk/types.js';
import { Protocol, type RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { z } from 'zod';
import type { ServerDefinition } from '../../../shared/mcp.js';
import type { ServerLog } from '../../process/serverLog.js';
import { isPlainObject } from '../../plainObject.js';
import { PromptsClient } from './promptsClient.js';
import { InstanceTaskStore, startRequestTask, TaskLimitError } from './requestTasks.js';
import { ToolsClient } from './toolsClient.js';
import { UserWaits } from './userWaits.js';
import type { McpWire, ProtocolEra } from './mcpWire.js';
import { ModernClient } from './modernClient.js';

/**
 * The MCP client's features in one place
 * (docs/contributing/architecture.md#mcp-client-features): what the client declares in `initialize`, and the
 * handlers of what a server may ask or tell it. The protocol client stays
 * apart from host policy (as in Zed's context servers): a feature only
 * registers its handlers here and delegates to a host service; whether a
 * server may ask is the policy's, asked before every handler runs.
 *
 * Tools are the one feature every connection has (listing, calling, and the
 * server's list-changed notification: ToolsClient). Roots, sampling,
 * elicitation, logging and resource updates are each one small feature
 * registered here when they exist: until one does, its capability is not
 * declared (the SDK refuses a handler for an undeclared capability, and a
 * server asking gets "method not found").
 */

type AnySchema = z.ZodType<object>;

/** Which connection asks: its server, and the conversation whose instance it is (`*` for a shared one; none for a probe outside the leases). */
export interface Asker {
  readonly definition: ServerDefinition;
  readonly lease?: string;
}

/** How a feature's request handler is added. */
export interface RequestOptions {
  /**
   * The feature checks the request's params itself, with reasons a person
   * can read and an audit row: the SDK client's own check of this method
   * (a zod error dump, before any handler or policy) is not run.
   */
  ownCheck?: boolean;
  /**
   * A request that carries `params.task` runs as a task (docs/using/sampling.md#async-requests):
   * answered at once with the task, the handler run on with the task's
   * signal, its answer kept for tasks/result. The feature declares the method
   * under `capabilities.tasks.requests` (the SDK refuses a task for a method
   * not declared there, before any handler).
   */
  asTask?: boolean;
}

/** What a feature's request handler is given besides the request: its signal (and, on the 2025 wire, what a task needs). */
export type HandlerExtra = Pick<RequestHandlerExtra<Request, Notification>, 'signal'> & Partial<Pick<RequestHandlerExtra<Request, Notification>, 'taskStore' | 'taskRequestedTtl'>>;

/** What a feature sees of one connection: which server it is, and where it adds its handlers. */
export interface FeatureSession extends Asker {
  /** Answers a server→client request (roots/list, sampling/createMessage, elicitation/create), once the policy lets this server ask. */
  onRequest<S extends AnySchema>(schema: S, handler: (request: z.output<S>, extra: HandlerExtra) => Promise<Result>, options?: RequestOptions): void;
  /** Hears a server notification (list changed, logging, resource updated). */
  onNotification<S extends AnySchema>(schema: S, handler: (notification: z.output<S>) => void | Promise<void>): void;
  /** This connection's tools: a list-changed notification re-lists them. */
  readonly tools: ToolsClient;
  /** This connection's MCP prompts: a list-changed notification re-lists them. */
  readonly prompts: PromptsClient;
  /** The questions this server put to the user that are waiting: a feature asking the user runs its wait through it, so the connection's calls do not time out meanwhile. */
  readonly userWaits: UserWaits;
  /** The server's log (what the Servers page shows): where its own log messages go. None for a client made outside the host. */
  readonly log?: ServerLog;
  /** Whether the policy lets this server ask `method` now: for what a feature asks the user outside a request handler (a -32042 answer's pages). */
  mayAsk(method: string): { ok: true } | { ok: false; reason: string };
}

/** One client feature: the capability it declares (only once it exists) and its handlers, added to each connection. */
export interface ClientFeature {
  readonly name: string;
  readonly capabilities?: ClientCapabilities;
  attach(session: FeatureSession): void;
}

/**
 * Whether a server may ask the host something (its app granted to the
 * caller, the user told who asks); every request handler passes it first.
 * A refusal reaches the server as an MCP error with the reason.
 */
export interface ClientRequestPolicy {
  mayAsk(asker: Asker, method: string): { ok: true } | { ok: false; reason: string };
  /** A request it allowed was refused later by the connection (more tasks than an instance may keep): for the audit. */
  refusedLater?(asker: Asker, method: string, code: string, reason: string): void;
}

/** Without the host's policy (a connection made outside a host), nothing is asked. */
const NO_REQUESTS: ClientRequestPolicy = { mayAsk: (_asker, method) => ({ ok: false, reason: `this client answers no ${method} request` }) };

/** The tools feature: a server's notifications/tools/list_changed re-lists its tools (no client capability is needed for it). */
export const toolsFeature: ClientFeature = {
  name: 'tools',
  attach(session) {
    session.tools.watchListChanged();
  },
};

/** The prompts feature: a server's notifications/prompts/list_changed re-lists its prompts (no client capability is needed for it). */
export const promptsFeature: ClientFeature = {
  name: 'prompts',
  attach(session) {
    session.prompts.watchListChanged();
  },
};

/**
 * One connection's client, with its features attached, its tools and prompts, and the questions it put to the user.
 * `legacy` is the v1 SDK client (initialize, 2025-11-25 and older), `modern` the 2026-07-28 one: exactly one is set.
 */
export interface ClientSession {
  readonly client: McpWire;
  readonly era: ProtocolEra;
  readonly legacy?: Client;
  readonly modern?: ModernClient;
  readonly tools: ToolsClient;
  readonly prompts: PromptsClient;
  readonly userWaits: UserWaits;
}

export class ClientFeatures {
  constructor(
    private readonly features: readonly ClientFeature[] = [toolsFeature],
    private readonly policy: ClientRequestPolicy = NO_REQUESTS,
  ) {}

  /**
   * What the client declares: the union of its features' capabilities (none
   * while only tools exist). A feature that runs requests as tasks declares
   * them under `tasks.requests`; the client then lists and cancels its tasks
   * too (the SDK answers both from the connection's task store).
   */
  capabilities(): ClientCapabilities {
    const merged = this.features.reduce<Record<string, unknown>>((all, feature) => mergeDeep(all, feature.capabilities ?? {}), {}) as ClientCapabilities;
    if (merged.tasks?.requests) merged.tasks = { list: {}, cancel: {}, ...merged.tasks };
    return merged;
  }

  /**
   * A new client for one connection to `definition` (the instance of conversation `lease`, logging to `log`), every
   * feature attached, before it connects: the v1 SDK client for a server that speaks `initialize` (`legacy`), the v2
   * one for a 2026-07-28 server (`modern`), whose `input_required` questions reach the same handlers.
   */
  open(info: { name: string; version: string }, definition: ServerDefinition, lease?: string, log?: ServerLog, era: ProtocolEra = 'legacy'): ClientSession {
    const capabilities = this.capabilities();
    if (era === 'modern') return this.openModern(info, capabilities, definition, lease, log);
    // One task store per connection (one server instance): a task id is found only by the instance that made it.
    const tasks = capabilities.tasks ? new InstanceTaskStore(definition.id) : undefined;
    const client = new Client(info, { capabilities, ...(tasks ? { taskStore: tasks } : {}) });
    if (tasks) client.onclose = () => tasks.dispose();
    const parts = this.parts(client, definition, lease, log);
    const { policy } = this;
    const session: FeatureSession = {
      ...parts.session,
      onRequest(schema, handler, options = {}) {
        const guarded = async (request: z.output<typeof schema>, extra: HandlerExtra) => {
          const method = (request as { method: string }).method;
          const allowed = policy.mayAsk(parts.asker, method);
          if (!allowed.ok) throw new McpError(ErrorCode.InvalidRequest, allowed.reason);
          const { params } = request as { params?: unknown };
          if (options.asTask && tasks && extra.taskStore && isTaskAugmentedRequestParams(params) && params.task) {
            // The same handler (the same person-in-the-loop flow), run on under the task's signal instead of the request's.
            return startRequestTask(tasks, extra.taskStore, extra.taskRequestedTtl, (signal) => handler(request, { ...extra, signal })).catch((error: unknown) => {
              if (error instanceof TaskLimitError) policy.refusedLater?.(parts.asker, method, 'TASK_LIMIT', error.reason);
              throw error;
            });
          }
          return handler(request, extra);
        };
        // The base class's registration: the Client's override would check (and refuse) the params first, in its own words.
        if (options.ownCheck) Protocol.prototype.setRequestHandler.call(client, schema, guarded);
        else client.setRequestHandler(schema, guarded);
      },
    };
    for (const feature of this.features) feature.attach(session);
    return { client, era, legacy: client, tools: parts.session.tools, prompts: parts.session.prompts, userWaits: parts.session.userWaits };
  }

  /**
   * The 2026-07-28 client: no server→client requests on this wire; what a server asks comes inside a call's
   * `input_required` result, and the v2 SDK hands each embedded request to the handler registered for its method,
   * after the same policy check. No tasks here: the 2026 tasks extension is not the 2025 one.
   */
  private openModern(info: { name: string; version: string }, capabilities: ClientCapabilities, definition: ServerDefinition, lease?: string, log?: ServerLog): ClientSession {
    const client = new ModernClient(info, modernCapabilities(capabilities), definition.id);
    if (log)
      client.onListenRefused = (why) =>
        log.append('lifecycle', `the server refused the subscriptions/listen stream (${why}); its list changes are not heard, its lists are as of the last time they were asked`);
    const parts = this.parts(client, definition, lease, log);
    const { policy } = this;
    const session: FeatureSession = {
      ...parts.session,
      onRequest(schema, handler) {
        client.onRequest(schema, async (request, signal) => {
          const allowed = policy.mayAsk(parts.asker, request.method);
          if (!allowed.ok) throw new McpError(ErrorCode.InvalidRequest, allowed.reason);
          return handler(request as z.output<typeof schema>, { signal });
        });
      },
    };
    for (const feature of this.features) feature.attach(session);
    return { client, era: 'modern', modern: client, tools: parts.session.tools, prompts: parts.session.prompts, userWaits: parts.session.userWaits };
  }

  /** What both eras' sessions share: who asks, the tools, prompts and waits over `client`, and notifications. */
  private parts(client: McpWire, definition: ServerDefinition, lease?: string, log?: ServerLog): { asker: Asker; session: Omit<FeatureSession, 'onRequest'> } {
    const asker: Asker = lease === undefined ? { definition } : { definition, lease };
    return {
      asker,
      session: {
        ...asker,
        tools: new ToolsClient(client),
        prompts: new PromptsClient(client),
        userWaits: new UserWaits(),
        ...(log ? { log } : {}),
        mayAsk: (method) => this.policy.mayAsk(asker, method),
        onNotification(schema, handler) {
          client.setNotificationHandler(schema, handler);
        },
      },
    };
  }
}

/** What a 2026-07-28 client declares: the same, without the 2025 tasks (the 2026 tasks extension is another design). */
export function modernCapabilities(capabilities: ClientCapabilities): ClientCapabilities {
  const { tasks: _tasks, ...declared } = capabilities;
  return declared;
}

/** `extra` merged into `base`, objects within objects merged too (capabilities nest: tasks.requests.sampling). */
function mergeDeep(base: Record<string, unknown>, extra: object): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const was = merged[key];
    merged[key] = isPlainObject(was) && isPlainObject(value) ? mergeDeep(was, value) : value;
  }
  return merged;
}
