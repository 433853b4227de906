import { ErrorCode, McpError, type Resource, type ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { ServerDefinition } from '../../shared/mcp.js';
import { DEFAULT_RESULT_CHARS } from '../../shared/mcp.js';
import { isViewUri, type ResourceEntry, type ResourceListing, type ResourceRead, type ResourceTemplateEntry } from '../../shared/resources.js';
import { templateArguments } from '../../shared/uriTemplate.js';
import type { AuditDraft } from '../audit/auditLine.js';
import type { ResourcesClient } from '../mcp/client/resourcesClient.js';
import type { Lease } from '../mcp/connection/connectionManager.js';
import type { AccessAnswer } from '../policy/accessRule.js';
import type { Caller } from '../tools/toolSource.js';
import { boundedRead } from './readBounds.js';
import { ResourceError } from './resourceError.js';

/** Characters of a URI (or a template, or a completion's value) the host sends: a longer one is refused. */
const MAX_URI_CHARS = 8 * 1024;
/** Characters of a name, title or description kept of a listed entry. */
const MAX_LABEL_CHARS = 2_000;

export interface ResourceServiceDeps {
  definition(serverId: string): ServerDefinition | undefined;
  /** The access rule's answer for this caller and server now (the gateway's: grant, switch, flow, run gate). */
  access(caller: Caller, server: ServerDefinition): AccessAnswer;
  /** The caller's instance of the server (the conversation's lease), started if need be. */
  acquire(server: ServerDefinition, conversationId: string): Promise<Lease>;
  audit(draft: AuditDraft): void;
  now(): number;
}

type Method = 'resources/list' | 'resources/read' | 'resources/subscribe' | 'resources/unsubscribe' | 'completion/complete';

/**
 * The one host path to a server's resources (docs/rules/resources.md#grant):
 * every list, read, subscription and completion names its caller, whose
 * access to the server is checked now, as for a tool call; a refusal and
 * every read are in the audit like a read tool's call. The request runs on
 * the caller's own instance of the server (its conversation's lease), with
 * the server's timeout; a read comes back within the result-size bounds.
 */
export class ResourceService {
  constructor(private readonly deps: ResourceServiceDeps) {}

  /** What the server lists and its templates (each bounded), and whether it takes subscriptions. */
  async list(caller: Caller, serverId: string): Promise<ResourceListing> {
    return this.run(caller, serverId, 'resources/list', undefined, async (lease) => {
      const { listed, templates, subscribe } = await lease.connection.resources('resources/list', async (client, sdk) => {
        requireResources(client, serverId);
        // A server with resources but no templates may answer "method not found" to the second list: it has none.
        const [listed, templates] = await Promise.all([client.list(sdk), client.templates(sdk).catch(noTemplates)]);
        return { listed, templates, subscribe: client.offers().subscribe };
      });
      return { serverId, resources: listed.items.map(entryOf), templates: templates.items.map(templateOf), subscribe, truncated: listed.truncated || templates.truncated };
    });
  }

  /**
   * One resource's contents, within the server's result-size cap; audited like a read tool's call. `whole`: for an MCP
   * App's view (docs/rules/mcp-apps.md#what-the-view-may-ask), which reads data, not text for a model: its text is not
   * cut to the cap (the transport's bound on one message still holds).
   */
  async read(caller: Caller, serverId: string, uri: string, options: { whole?: boolean } = {}): Promise<ResourceRead> {
    checkUri(uri, serverId);
    return this.run(caller, serverId, 'resources/read', { uri }, async (lease) => {
      const result = await lease.connection.resources(`resources/read ${uri}`, (client, sdk) => {
        requireResources(client, serverId);
        return client.read(uri, sdk);
      });
      return boundedRead(serverId, uri, result, options.whole ? Number.POSITIVE_INFINITY : (lease.connection.definition.maxResultChars ?? DEFAULT_RESULT_CHARS));
    });
  }

  /** Subscribes the caller's instance to a resource's updates (or ends it); updates reach the faces as `resource` events. */
  async subscribe(caller: Caller, serverId: string, uri: string, subscribed: boolean): Promise<void> {
    checkUri(uri, serverId);
    const method = subscribed ? 'resources/subscribe' : 'resources/unsubscribe';
    await this.run(caller, serverId, method, { uri }, (lease) =>
      lease.connection.resources(`${method} ${uri}`, (client, sdk) => {
        requireResources(client, serverId);
        if (!client.offers().subscribe) throw new ResourceError('NOT_OFFERED', `server "${serverId}" does not take resource subscriptions`, 'read the resource again to see a change', serverId);
        return client.subscribe(uri, subscribed, sdk);
      }),
    );
  }

  /** Values the server suggests for one argument of a template (`completion/complete`); none from a server without completions. */
  async complete(caller: Caller, serverId: string, uriTemplate: string, argument: { name: string; value: string }, context: Record<string, string> = {}): Promise<string[]> {
    checkUri(uriTemplate, serverId);
    if (argument.value.length > MAX_URI_CHARS) throw new ResourceError('BAD_ARGUMENTS', `the value of "${argument.name}" is over ${MAX_URI_CHARS} characters`, 'type less', serverId);
    const ownContext: Record<string, string> = {};
    for (const [name, value] of Object.entries(context)) if (typeof value === 'string' && value.length <= MAX_URI_CHARS) ownContext[name] = value;
    return this.run(caller, serverId, 'completion/complete', undefined, (lease) =>
      lease.connection.resources('completion/complete', (client, sdk) => (client.offers().completions ? client.complete(uriTemplate, argument, ownContext, sdk) : Promise.resolve([]))),
    );
  }

  /**
   * Checks the caller's access now, then runs the request on its instance.
   * A refusal is audited; so is a read (`audited` names what it read), with
   * how it ended.
   */
  private async run<T>(caller: Caller, serverId: string, method: Method, audited: { uri: string } | undefined, work: (lease: Lease) => Promise<T>): Promise<T> {
    const started = this.deps.now();
    const server = this.deps.definition(serverId);
    if (!server) throw new ResourceError('MCP_SERVER_NOT_FOUND', `no MCP server "${serverId}"`, 'see the servers: chatos mcp list', serverId);
    const access = this.deps.access(caller, server);
    if (!access.ok) {
      this.record(caller, serverId, method, audited, started, { decision: 'refused', outcome: 'refused', reason: access.code, error: access.reason });
      throw new ResourceError(access.code, access.reason, access.fix, serverId);
    }
    try {
      const lease = await this.deps.acquire(server, caller.conversationId);
      const value = await work(lease);
      if (audited) this.record(caller, serverId, method, audited, started, { decision: 'auto', outcome: 'ok' });
      return value;
    } catch (error) {
      if (audited) this.record(caller, serverId, method, audited, started, { decision: 'auto', outcome: 'failed', error: (error as Error).message });
      throw error;
    }
  }

  private record(caller: Caller, serverId: string, method: Method, args: { uri: string } | undefined, started: number, how: Pick<AuditDraft, 'decision' | 'outcome' | 'reason' | 'error'>): void {
    const at = this.deps.now();
    this.deps.audit({
      at,
      agentId: caller.agentId,
      conversationId: caller.conversationId,
      appId: caller.appId,
      flow: caller.flow,
      serverId,
      tool: method,
      permission: 'read',
      durationMs: at - started,
      ...how,
      ...(args ? { callArgs: args } : {}),
    });
  }
}

/** "Method not found" to resources/templates/list: no templates; any other failure stays one. */
function noTemplates(error: unknown): { items: ResourceTemplate[]; truncated: boolean } {
  if (error instanceof McpError && error.code === ErrorCode.MethodNotFound) return { items: [], truncated: false };
  throw error;
}

function requireResources(client: ResourcesClient, serverId: string): void {
  if (!client.offers().resources) throw new ResourceError('NOT_OFFERED', `server "${serverId}" offers no resources`, 'use its tools instead', serverId);
}

function checkUri(uri: string, serverId: string): void {
  if (typeof uri !== 'string' || uri.length === 0 || uri.length > MAX_URI_CHARS) {
    throw new ResourceError('BAD_ARGUMENTS', `a resource URI must be 1 to ${MAX_URI_CHARS} characters`, 'pick a resource from the server\u2019s list', serverId);
  }
}

const label = (text: unknown): string | undefined => (typeof text === 'string' ? text.slice(0, MAX_LABEL_CHARS) : undefined);

/** A listed resource as the faces get it: its labels bounded, nothing else of the server's object. */
function entryOf(resource: Resource): ResourceEntry {
  const entry: ResourceEntry = { uri: resource.uri, name: label(resource.name) ?? resource.uri, ...(isViewUri(resource.uri) ? { view: true as const } : {}) };
  const title = label(resource.title);
  const description = label(resource.description);
  if (title) entry.title = title;
  if (description) entry.description = description;
  if (typeof resource.mimeType === 'string') entry.mimeType = resource.mimeType;
  if (typeof resource.size === 'number') entry.size = resource.size;
  return entry;
}

function templateOf(template: ResourceTemplate): ResourceTemplateEntry {
  const entry: ResourceTemplateEntry = {
    uriTemplate: template.uriTemplate,
    name: label(template.name) ?? template.uriTemplate,
    arguments: templateArguments(template.uriTemplate),
    ...(isViewUri(template.uriTemplate) ? { view: true as const } : {}),
  };
  const title = label(template.title);
  const description = label(template.description);
  if (title) entry.title = title;
  if (description) entry.description = description;
  if (typeof template.mimeType === 'string') entry.mimeType = template.mimeType;
  return entry;
}
