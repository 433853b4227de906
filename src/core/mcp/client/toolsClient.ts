import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ToolListChangedNotificationSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { HostCallToolResultSchema } from '../connection/callToolResult.js';
import { checkTools, ListedToolsSchema, type RejectedTool } from './checkedTools.js';
import { CoalescedRelist, RELIST_GAP_MS } from './coalescedRelist.js';
import { callToolAsTask } from './toolTask.js';
import type { McpWire } from './mcpWire.js';
import { pagesRequired, type AskForPages } from './urlsRequired.js';

/**
 * One connection's tools, over its SDK client: the list as the server last
 * gave it, a call, and (the tools feature) a re-list whenever the server
 * says its list changed.
 */
export class ToolsClient {
  private tools: Tool[] = [];
  private rejectedTools: RejectedTool[] = [];
  private readonly relists: CoalescedRelist<ToolListing>;

  constructor(
    private readonly client: McpWire,
    gapMs = RELIST_GAP_MS,
  ) {
    this.relists = new CoalescedRelist<ToolListing>(async () => {
      await this.refresh();
      return { tools: this.tools, rejected: this.rejectedTools };
    }, gapMs);
  }

  get list(): readonly Tool[] {
    return this.tools;
  }

  /** The tools of the last list that the host cannot offer (a broken schema), each with why. */
  get rejected(): readonly RejectedTool[] {
    return this.rejectedTools;
  }

  /**
   * Asks the server for its tools now. Each tool is checked on its own
   * (checkedTools.ts): a tool the MCP schema refuses is set apart with why,
   * and the server's other tools are kept.
   */
  async refresh(): Promise<void> {
    // The v1 client's list is read leniently, each tool checked on its own; the 2026 client (modernClient.ts) reads it as
    // its SDK does, which refuses the whole list for one bad tool.
    const v1 = this.client instanceof Client ? this.client : undefined;
    const listed = v1 ? await v1.request({ method: 'tools/list' }, ListedToolsSchema) : await this.client.listTools();
    const { tools, rejected } = checkTools(listed.tools);
    // What the SDK's listTools does with a list it took: its calls check structured results against these output schemas.
    if (v1) (v1 as unknown as { cacheToolMetadata(tools: Tool[]): void }).cacheToolMetadata(tools);
    this.tools = tools;
    this.rejectedTools = rejected;
    this.taskTools = new Set(this.tools.filter((tool) => tool.execution?.taskSupport === 'required').map((tool) => tool.name));
  }

  /** Re-lists on the server's notifications/tools/list_changed, coalesced: one re-list in flight, the changes announced meanwhile in one more. */
  watchListChanged(): void {
    this.client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.relists.changed());
  }

  /** Hears each list a list-changed re-list brought; returns the unsubscribe function. */
  onListChanged(listener: (listing: ToolListing) => void): () => void {
    return this.relists.onListChanged(listener);
  }

  /** Tools the server runs only as tasks (`execution.taskSupport: required`), from the last list. */
  private taskTools = new Set<string>();

  /** Who puts the pages of a -32042 answer to the user (the elicitation feature); without one, the error stays an error. */
  private askForPages: AskForPages | undefined;

  /** The elicitation feature takes the pages a server needs opened before a call (urlsRequired.ts). */
  onPagesRequired(ask: AskForPages): void {
    this.askForPages = ask;
  }

  /**
   * One tools/call, its result read as the host reads results (images kept, nothing else widened); a tool that
   * requires it, as a task. A -32042 answer (pages to open first) puts the pages to the user and, once every
   * one was opened, makes the call once more; a second -32042 is the server's error.
   */
  async call(name: string, args: Record<string, unknown>, meta: Record<string, unknown>, options: RequestOptions): Promise<CallToolResult> {
    const announced = this.relists.announcements;
    // One async frame for the whole call: each more cost a promise, and a turn to settle it, on every call.
    let result: CallToolResult;
    try {
      result = await this.callOnce(name, args, meta, options);
    } catch (error) {
      result = await this.afterPagesRequired(error, name, args, meta, options);
    }
    // The server's notifications come before its answer: a list change it announced meanwhile is read before the
    // result is given, so what the call added is offered to the very next request (the next round of a turn). Never
    // past the call's own end: a server that does not answer its re-list cannot hold a result back. Only a change
    // announced while the call ran: one from before it (a server announcing its tools as it starts) is not the
    // call's doing, and waiting for its re-list held a first call back by the re-lists' gap, 200 ms and more.
    const relisting = this.relists.announcements !== announced ? this.relists.underWay() : undefined;
    if (relisting) await Promise.race([relisting, ...(options.signal ? [untilAborted(options.signal)] : [])]);
    return result;
  }

  /** A call that failed: when the server asked for pages to be opened first (-32042), they are put to the user, then the call is made once more. */
  private async afterPagesRequired(error: unknown, name: string, args: Record<string, unknown>, meta: Record<string, unknown>, options: RequestOptions): Promise<CallToolResult> {
    const pages = this.askForPages && pagesRequired(error);
    if (!pages) throw error;
    const ended = await this.askForPages!(pages, realSignal(options.signal));
    return ended ?? (await this.callOnce(name, args, meta, options));
  }

  /** The request itself, its promise handed on as it is (no async frame of its own). */
  private callOnce(name: string, args: Record<string, unknown>, meta: Record<string, unknown>, options: RequestOptions): Promise<CallToolResult> {
    // Tasks as 2025-11-25 has them (tasks/get, tasks/result), on the v1 client only: the 2026 tasks extension is another protocol.
    if (this.taskTools.has(name) && this.client instanceof Client) return callToolAsTask(this.client, { name, arguments: args, _meta: meta }, options);
    return this.client.callTool({ name, arguments: args, _meta: meta }, HostCallToolResultSchema, options) as Promise<CallToolResult>;
  }
}

/** A server's tools as last listed: those the host may offer, and those it may not, with why. */
export interface ToolListing {
  tools: readonly Tool[];
  rejected: readonly RejectedTool[];
}

/**
 * A real AbortSignal following the call's (a CallAbort stands in for one, with only what the SDK reads):
 * the questions put to the user combine it with AbortSignal.any, which takes real ones only.
 */
function realSignal(signal: AbortSignal | undefined): AbortSignal | undefined {
  if (!signal) return undefined;
  const controller = new AbortController();
  if (signal.aborted) controller.abort(signal.reason);
  else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  return controller.signal;
}

/** Resolves when the call's signal aborts (a CallAbort or a real signal). */
const untilAborted = (signal: AbortSignal) => new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
