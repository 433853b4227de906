import type { TrustChanges } from '../shared/trust.js';
import type { AppToolCall } from './tools/callEvents.js';
import type { ReloadReport } from './mcp/mcpRuntime.js';
import type { ResourceChange } from '../shared/resources.js';
import type { ListChange } from './reload/listWatch.js';

/** The core's live events for the faces (UI, serve): reloads, rescans, trust changes, app calls. */
export type HostEvent =
  | { kind: 'plugins-rescanned'; reread: string[]; removed: string[]; problems: number }
  /** A development link was edited: re-pinned, its servers and backend ended so the next use runs the new code. */
  | { kind: 'dev-reloaded'; pluginId: string; changes: TrustChanges; runPlanChanged: boolean }
  | { kind: 'mcp-reloaded'; report: ReloadReport }
  /** A running server's tool list changed (its list-changed notification): what is offered changed without a reload. */
  | { kind: 'mcp-tools-changed'; serverId: string }
  /** A resource a conversation's instance subscribed to changed, or the server's list of resources did (coalesced: docs/using/resources.md#subscriptions). */
  | ({ kind: 'mcp-resource-changed' } & ResourceChange)
  /** A call through this process's gateway reached a plugin app's server: its open pages may re-read. */
  | ({ kind: 'app-tool-called' } & AppToolCall)
  /** Trust records changed (here or by another process): these plugins' trust changed, or what they ran was stopped. */
  | { kind: 'trust-changed'; pluginIds: string[] }
  /** Models, agents or knowledge bases changed, here or by another process (ListWatch): the faces' lists re-read. */
  | { kind: 'lists-changed'; changes: ListChange[] };
