import type { McpWire } from './mcpWire.js';
import { PromptListChangedNotificationSchema, type CompleteResult, type GetPromptResult, type Prompt } from '@modelcontextprotocol/sdk/types.js';
import { CoalescedRelist, RELIST_GAP_MS } from './coalescedRelist.js';

/** Pages of prompts/list read, and prompts kept, per server: a server that pages forever is cut here (docs/using/slash-commands.md#limits). */
const MAX_PAGES = 10;
export const MAX_PROMPTS_PER_SERVER = 500;

/**
 * One connection's MCP prompts, over its SDK client: the list (asked once,
 * on first use, and again whenever the server says it changed, coalesced
 * like the tools), a prompts/get and a completion/complete. A server that
 * declared no prompts capability has none, and is never asked.
 */
export class PromptsClient {
  private prompts: readonly Prompt[] | undefined;
  private readonly relists: CoalescedRelist<readonly Prompt[]>;

  constructor(
    private readonly client: McpWire,
    gapMs = RELIST_GAP_MS,
  ) {
    this.relists = new CoalescedRelist(() => this.refresh(), gapMs);
  }

  /** Whether the server declared prompts (known once it answered initialize). */
  get offered(): boolean {
    return this.client.getServerCapabilities()?.prompts !== undefined;
  }

  /** Whether the server declared completions (completion/complete). */
  get completes(): boolean {
    return this.client.getServerCapabilities()?.completions !== undefined;
  }

  /** The prompts as the server last listed them; undefined before the first list. */
  get current(): readonly Prompt[] | undefined {
    return this.prompts;
  }

  /** The prompts as the server last listed them, listing them now the first time. */
  async list(timeout: number): Promise<readonly Prompt[]> {
    return this.prompts ?? this.refresh(timeout);
  }

  /** Asks the server for its prompts now (every page, up to the bound). */
  async refresh(timeout?: number): Promise<readonly Prompt[]> {
    if (!this.offered) return (this.prompts = []);
    const all: Prompt[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES && all.length < MAX_PROMPTS_PER_SERVER; page++) {
      const result = await this.client.listPrompts(cursor === undefined ? {} : { cursor }, timeout === undefined ? {} : { timeout });
      all.push(...result.prompts);
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    this.prompts = Object.freeze(all.slice(0, MAX_PROMPTS_PER_SERVER));
    return this.prompts;
  }

  /** Re-lists on notifications/prompts/list_changed, coalesced (docs/using/slash-commands.md#the-list). */
  watchListChanged(): void {
    this.client.setNotificationHandler(PromptListChangedNotificationSchema, () => this.relists.changed());
  }

  /** Hears each list a list-changed re-list brought; returns the unsubscribe function. */
  onListChanged(listener: (prompts: readonly Prompt[]) => void): () => void {
    return this.relists.onListChanged(listener);
  }

  get(name: string, args: Record<string, string>, timeout: number): Promise<GetPromptResult> {
    return this.client.getPrompt({ name, arguments: args }, { timeout });
  }

  /** Suggestions for one argument of a prompt as the user types it (`ref/prompt`), with the arguments filled so far as context. */
  complete(name: string, argument: { name: string; value: string }, context: Record<string, string>, timeout: number): Promise<CompleteResult> {
    return this.client.complete({ ref: { type: 'ref/prompt', name }, argument, context: { arguments: context } }, { timeout });
  }
}
