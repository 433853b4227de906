import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ToolListChangedNotificationSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { HostCallToolResultSchema } from '../connection/callToolResult.js';
import { CoalescedRelist, RELIST_GAP_MS } from './coalescedRelist.js';
import { callToolAsTask } from './toolTask.js';
import type { McpWire } from './mcpWire.js';

/**
 * One connection's tools, over its SDK client: the list as the server last
 * gave it, a call, and (the tools feature) a re-list whenever the server
 * says its list changed.
 */
export class ToolsClient {
  private tools: Tool[] = [];
  private readonly relists: CoalescedRelist<readonly Tool[]>;

  constructor(
    private readonly client: McpWire,
    gapMs = RELIST_GAP_MS,
  ) {
    this.relists = new CoalescedRelist<readonly Tool[]>(async () => {
      await this.refresh();
      return this.tools;
    }, gapMs);
  }

  get list(): readonly Tool[] {
    return this.tools;
  }

  /** Asks the server for its tools now. */
  async refresh(): Promise<void> {
    this.tools = (await this.client.listTools()).tools;
    this.taskTools = new Set(this.tools.filter((tool) => tool.execution?.taskSupport === 'required').map((tool) => tool.name));
  }

  /** Re-lists on the server's notifications/tools/list_changed, coalesced: one re-list in flight, the changes announced meanwhile in one more. */
  watchListChanged(): void {
    this.client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.relists.changed());
  }

  /** Hears each list a list-changed re-list brought; returns the unsubscribe function. */
  onListChanged(listener: (tools: readonly Tool[]) => void): () => void {
    return this.relists.onListChanged(listener);
  }

  /** Tools the server runs only as tasks (`execution.taskSupport: required`), from the last list. */
  private taskTools = new Set<string>();

  /** One tools/call, its result read as the host reads results (images kept, nothing else widened); a tool that requires it, as a task. */
  async call(name: string, args: Record<string, unknown>, meta: Record<string, unknown>, options: RequestOptions): Promise<CallToolResult> {
    // Tasks as 2025-11-25 has them (tasks/get, tasks/result), on the v1 client only: the 2026 tasks extension is another protocol.
    if (this.taskTools.has(name) && this.client instanceof Client) return callToolAsTask(this.client, { name, arguments: args, _meta: meta }, options);
    return (await this.client.callTool({ name, arguments: args, _meta: meta }, HostCallToolResultSchema, options)) as CallToolResult;
  }
}
