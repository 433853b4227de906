import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ToolListChangedNotificationSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { HostCallToolResultSchema } from '../connection/callToolResult.js';
import { callToolAsTask } from './toolTask.js';

/**
 * The least time between two re-lists a server's list-changed notifications
 * start: a server that says its list changed 100 times a second is listed a
 * few times a second, never 100 (docs/rules/mcp-yaml.md#tool-list-changes).
 */
const RELIST_GAP_MS = 200;

/**
 * One connection's tools, over its SDK client: the list as the server last
 * gave it, a call, and (the tools feature) a re-list whenever the server
 * says its list changed.
 */
export class ToolsClient {
  private tools: Tool[] = [];
  private readonly listeners = new Set<(tools: readonly Tool[]) => void>();
  /** The re-list under way, if any: one at a time. */
  private relisting: Promise<void> | undefined;
  /** A change was announced after the re-list under way asked: one more re-list follows it, so the last change is always seen. */
  private again = false;

  constructor(
    private readonly client: Client,
    private readonly gapMs = RELIST_GAP_MS,
  ) {}

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
    this.client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.listChanged());
  }

  /** Hears each list a list-changed re-list brought; returns the unsubscribe function. */
  onListChanged(listener: (tools: readonly Tool[]) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private listChanged(): void {
    if (this.relisting) {
      this.again = true;
      return;
    }
    this.relisting = this.relist().finally(() => (this.relisting = undefined));
  }

  private async relist(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.refresh();
      } catch {
        // The connection closed (or the server failed to list): the last list stays, and the next notification tries again.
        return;
      }
      for (const listener of [...this.listeners]) listener(this.tools);
      // More changes came while listing: wait a little so a flood of them costs a few re-lists, then take the newest list.
      if (this.again) await new Promise((resolve) => setTimeout(resolve, this.gapMs).unref());
    } while (this.again);
  }

  /** Tools the server runs only as tasks (`execution.taskSupport: required`), from the last list. */
  private taskTools = new Set<string>();

  /** One tools/call, its result read as the host reads results (images kept, nothing else widened); a tool that requires it, as a task. */
  async call(name: string, args: Record<string, unknown>, meta: Record<string, unknown>, options: RequestOptions): Promise<CallToolResult> {
    if (this.taskTools.has(name)) return callToolAsTask(this.client, { name, arguments: args, _meta: meta }, options);
    return (await this.client.callTool({ name, arguments: args, _meta: meta }, HostCallToolResultSchema, options)) as CallToolResult;
  }
}
