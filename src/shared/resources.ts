/**
 * MCP resources as the host hands them to its faces (docs/using/resources.md):
 * what a server lists, its templates, and what one read gave, each already
 * bounded and checked by the host. Plain data: a blob is base64 text to keep
 * or download, never anything the host runs or renders as markup.
 */

/**
 * An MCP App's view (a `ui://` resource, docs/rules/mcp-apps.md): HTML for the host to show in its frame when a tool
 * names it, not content to attach to a message or hand a model. Listed as the server lists it, marked `view`.
 */
export const isViewUri = (uri: string): boolean => uri.startsWith('ui://');

/** One resource a server lists. */
export interface ResourceEntry {
  uri: string;
  name: string;
  /** An MCP App's view (isViewUri): the @-mention picker does not offer it. */
  view?: true;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Bytes, as the server says (not checked). */
  size?: number;
}

/** One resource template (RFC 6570 `uriTemplate`) and the names of its arguments, in order. */
export interface ResourceTemplateEntry {
  uriTemplate: string;
  name: string;
  /** A template of MCP App views (isViewUri): the @-mention picker does not offer it. */
  view?: true;
  title?: string;
  description?: string;
  mimeType?: string;
  arguments: string[];
}

/** A server's resources: what it lists (at most a bounded number), its templates, and whether it takes subscriptions. */
export interface ResourceListing {
  serverId: string;
  resources: ResourceEntry[];
  templates: ResourceTemplateEntry[];
  /** The server declared `resources.subscribe`. */
  subscribe: boolean;
  /** More were listed than the host keeps: the rest are left out (say so, never silently). */
  truncated: boolean;
}

/** One content item of a read: text, or a blob as base64 (its mimeType kept). */
export type ResourceContent = { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string };

/** What one read gave, within the host's bounds, and what was left out. */
export interface ResourceRead {
  serverId: string;
  uri: string;
  contents: ResourceContent[];
  /** What the read's bounds left out: text characters and blob items (none when nothing was). */
  cut?: { totalChars: number; keptChars: number; droppedBlobs: number };
}

/** A subscribed resource changed (`updated`, its uri), or a server's list of them did (`list`), on a conversation's instance: what faces hear, coalesced. */
export type ResourceChange = { change: 'updated'; serverId: string; conversationId: string; uri: string } | { change: 'list'; serverId: string; conversationId: string };
