import type { McpWire } from './mcpWire.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ReadResourceResult, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';

/**
 * Pages of one list the host asks for, at most: a server that hands out
 * cursors without end is listed a bounded number of times, and what it
 * listed past that is said to be left out.
 */
const MAX_PAGES = 20;
/** Resources (or templates) kept of one list. */
export const MAX_LISTED = 1_000;
/** Completion values kept of one answer (the spec's own cap: 100). */
const MAX_COMPLETIONS = 100;

/** A list as the server gave it, within the bounds, and whether it had more. */
export interface Listed<T> {
  items: T[];
  truncated: boolean;
}

/**
 * One connection's resources, over its SDK client: list, templates, read,
 * subscribe and completion of a template's arguments. The server's
 * capabilities say what it offers; asking for what it did not declare is
 * the caller's mistake, checked before (ResourceService).
 */
export class ResourcesClient {
  constructor(private readonly client: McpWire) {}

  /** The server declared resources, and whether it takes subscriptions. */
  offers(): { resources: boolean; subscribe: boolean; completions: boolean } {
    const capabilities = this.client.getServerCapabilities();
    return { resources: capabilities?.resources !== undefined, subscribe: capabilities?.resources?.subscribe === true, completions: capabilities?.completions !== undefined };
  }

  list(options: RequestOptions): Promise<Listed<Resource>> {
    return pages(async (cursor) => {
      const page = await this.client.listResources(cursor === undefined ? {} : { cursor }, options);
      return { items: page.resources, next: page.nextCursor };
    });
  }

  templates(options: RequestOptions): Promise<Listed<ResourceTemplate>> {
    return pages(async (cursor) => {
      const page = await this.client.listResourceTemplates(cursor === undefined ? {} : { cursor }, options);
      return { items: page.resourceTemplates, next: page.nextCursor };
    });
  }

  read(uri: string, options: RequestOptions): Promise<ReadResourceResult> {
    return this.client.readResource({ uri }, options);
  }

  async subscribe(uri: string, subscribed: boolean, options: RequestOptions): Promise<void> {
    if (subscribed) await this.client.subscribeResource({ uri }, options);
    else await this.client.unsubscribeResource({ uri }, options);
  }

  /** Values for one argument of a template (`completion/complete`, ref/resource), given what is typed and the other arguments. */
  async complete(uriTemplate: string, argument: { name: string; value: string }, context: Record<string, string>, options: RequestOptions): Promise<string[]> {
    const answer = await this.client.complete({ ref: { type: 'ref/resource', uri: uriTemplate }, argument, ...(Object.keys(context).length ? { context: { arguments: context } } : {}) }, options);
    return answer.completion.values.slice(0, MAX_COMPLETIONS);
  }
}

/** Every page of a paginated list, up to the bounds. */
async function pages<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; next: string | undefined }>): Promise<Listed<T>> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const got = await page(cursor);
    items.push(...got.items);
    if (items.length > MAX_LISTED) return { items: items.slice(0, MAX_LISTED), truncated: true };
    if (got.next === undefined) return { items, truncated: false };
    cursor = got.next;
  }
  return { items, truncated: true };
}
