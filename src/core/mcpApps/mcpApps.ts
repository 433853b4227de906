import type { ServerDefinition } from '../../shared/mcp.js';
import type { ResourceListing, ResourceRead } from '../../shared/resources.js';
import { appSees } from '../mcp/catalog/toolUi.js';
import { MCP_APP_MIME_TYPE } from '../mcp/client/mcpAppsFeature.js';
import type { Lease } from '../mcp/connection/connectionManager.js';
import { maxViewBytesOf, viewBytesSetting } from '../mcp/connection/viewReads.js';
import { megabytes } from '../process/overlongAnswer.js';
import type { ResourceService } from '../resources/resourceService.js';
import type { GatewayCallOptions, GatewayCallResult, ToolGateway } from '../tools/toolGateway.js';
import type { Caller } from '../tools/toolSource.js';
import { SlidingWindow } from '../slidingWindow.js';
import type { DeclaredCsp } from './viewCsp.js';
import { McpAppError } from './mcpAppError.js';

/**
 * The host side of MCP Apps in the core (docs/rules/mcp-apps.md): the one
 * checked path that reads a tool's `ui://` view, and the one path an app's
 * `tools/call` takes (the gateway, as the caller, with its grants,
 * confirmations and audit). Faces render; the rules are here.
 */

/** Calls one app (its server, in one conversation) may make in APP_CALL_WINDOW_MS, and at once. */
export const APP_CALLS_PER_WINDOW = 30;
export const APP_CALL_WINDOW_MS = 60_000;
export const APP_CALLS_AT_ONCE = 4;

/** A view as read: its document and what its resource declared of itself. */
export interface AppView {
  serverId: string;
  uri: string;
  html: string;
  /** `_meta.ui.csp` as declared; the face narrows it (viewCsp). */
  csp?: DeclaredCsp;
  prefersBorder?: boolean;
}

export interface McpAppsDeps {
  gateway: Pick<ToolGateway, 'listTools' | 'callTool'>;
  /** The host's one path to a server's resources (its access rule and audit). */
  resources: Pick<ResourceService, 'read' | 'list'>;
  definition(serverId: string): ServerDefinition | undefined;
  acquire(definition: ServerDefinition, conversationId: string): Promise<{ lease: Lease }>;
  now(): number;
}

const plainObject = (value: unknown): Record<string, unknown> | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);

export class McpApps {
  private readonly calls: SlidingWindow;
  private readonly running = new Map<string, number>();

  constructor(private readonly deps: McpAppsDeps) {
    this.calls = new SlidingWindow({ limit: APP_CALLS_PER_WINDOW, windowMs: APP_CALL_WINDOW_MS, now: deps.now });
  }

  /**
   * Reads `uri` of `serverId` for the caller: only a view a tool the caller is
   * offered links to (so the caller's grants decide), only an MCP App
   * document, at most its server's `maxViewBytes` (docs/rules/mcp-apps.md#size).
   */
  async view(caller: Caller, serverId: string, uri: string, signal?: AbortSignal): Promise<AppView> {
    const { tools } = await this.deps.gateway.listTools(caller);
    const linked = tools.some((t) => t.serverId === serverId && t.ui?.resourceUri === uri);
    const definition = linked ? this.deps.definition(serverId) : undefined;
    if (!definition)
      throw new McpAppError('VIEW_NOT_LINKED', `no tool of "${serverId}" this caller is offered shows the view ${uri.slice(0, 200)}`, 'a view is shown only for a tool that links to it');
    const { lease } = await this.deps.acquire(definition, caller.conversationId);
    const read = await lease.connection.readResource(uri, signal);
    const content = read.contents.find((c) => c.uri === uri) ?? read.contents[0];
    const mimeType = content?.mimeType ?? '(none)';
    if (!content || mimeType.replace(/\s+/g, '').toLowerCase() !== MCP_APP_MIME_TYPE) {
      throw new McpAppError(
        'VIEW_NOT_AN_APP',
        `${uri.slice(0, 200)} of "${serverId}" is ${content ? `of type ${mimeType.slice(0, 100)}` : 'empty'}, not an MCP App view (${MCP_APP_MIME_TYPE})`,
        "the server's resource must be an MCP App view",
      );
    }
    // Sized before it is decoded: base64 takes 4 characters for 3 bytes.
    const bytes = 'text' in content ? Buffer.byteLength(content.text) : Math.floor((content.blob.length * 3) / 4);
    const limit = maxViewBytesOf(definition);
    if (bytes > limit)
      throw new McpAppError(
        'VIEW_TOO_LARGE',
        `the view ${uri.slice(0, 200)} of "${serverId}" is ${megabytes(bytes)}; at most ${megabytes(limit)} (${limit} bytes) is rendered`,
        viewBytesSetting(serverId),
      );
    const html = 'text' in content ? content.text : Buffer.from(content.blob, 'base64').toString('utf8');
    const ui = plainObject(plainObject(content._meta)?.ui);
    const csp = plainObject(ui?.csp);
    return { serverId, uri, html, ...(csp ? { csp } : {}), ...(ui?.prefersBorder === true ? { prefersBorder: true } : {}) };
  }

  /**
   * An app's `tools/call`: a tool of its own server that the spec lets an app
   * see, through the gateway as the caller; refused past its share of calls.
   */
  async call(caller: Caller, serverId: string, rawName: string, args: Record<string, unknown>, options?: GatewayCallOptions): Promise<GatewayCallResult> {
    const { tools } = await this.deps.gateway.listTools(caller);
    const tool = tools.find((t) => t.serverId === serverId && t.rawName === rawName && t.source === 'mcp');
    if (!tool || !appSees(tool)) {
      throw new McpAppError(
        'APP_TOOL_NOT_VISIBLE',
        `the app of "${serverId}" may not call "${rawName.slice(0, 100)}": ${tool ? 'the tool is for the model only' : 'its server offers this caller no such tool'}`,
        'an app calls the tools of its own server that are visible to apps',
      );
    }
    const key = `${caller.conversationId}\u0000${serverId}`;
    this.take(key, serverId);
    this.running.set(key, (this.running.get(key) ?? 0) + 1);
    try {
      return await this.deps.gateway.callTool(caller, tool.name, args, options);
    } finally {
      const left = (this.running.get(key) ?? 1) - 1;
      if (left) this.running.set(key, left);
      else this.running.delete(key);
    }
  }

  /**
   * A view's `resources/read`: a resource of the view's own server, on the
   * host's one resource path as the caller (its access to the server checked
   * now, the read audited), whole: a view reads data, not text for a model.
   */
  readResource(caller: Caller, serverId: string, uri: string): Promise<ResourceRead> {
    return this.deps.resources.read(caller, serverId, uri, { whole: true });
  }

  /** A view's `resources/list` and `resources/templates/list`: its own server's, as the caller sees them. */
  listResources(caller: Caller, serverId: string): Promise<ResourceListing> {
    return this.deps.resources.list(caller, serverId);
  }

  private take(key: string, serverId: string): void {
    if ((this.running.get(key) ?? 0) >= APP_CALLS_AT_ONCE) throw new McpAppError('APP_CALL_RATE_LIMITED', `the app of "${serverId}" has ${APP_CALLS_AT_ONCE} calls running`, 'wait for them to end');
    const taken = this.calls.take(key);
    if (!taken.ok)
      throw new McpAppError(
        'APP_CALL_RATE_LIMITED',
        `the app of "${serverId}" made ${taken.used} calls in the last minute`,
        `wait ${taken.waitSeconds} s; an app may make ${APP_CALLS_PER_WINDOW} a minute`,
      );
  }
}
