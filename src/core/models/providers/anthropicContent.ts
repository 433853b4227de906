import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ChatMessage } from './modelRequest.js';
import { jsonSize, MAX_REPLAY_CHARS, type StreamEvent } from './streamEvent.js';

/**
 * An Anthropic answer's content, block by block in its order, for when it
 * must go back exactly as it came: an answer that used server tools
 * (`server_tool_use` with its `web_search_tool_result`, web fetch, code
 * execution…). A turn the API paused (`stop_reason: "pause_turn"`, its
 * content ending with a server tool call not run yet) goes on only when
 * its content is sent back as-is; and later requests keep the searches'
 * results (their `encrypted_content` backs the citations) only if the
 * blocks are replayed, not just the text
 * (platform.claude.com/docs/en/agents-and-tools/tool-use/server-tools).
 *
 * It travels as one replay item `{ type: 'content', content }`, sent back
 * only to the same model entry (history.ts), in place of the answer's text,
 * calls and thinking.
 */

type Block = Record<string, unknown> & { type: string };

/** A block the provider ran or answered itself: the reason to keep the whole content. */
const isServerBlock = (type: string) => type === 'server_tool_use' || type === 'mcp_tool_use' || type === 'container_upload' || (type.endsWith('_tool_result') && type !== 'tool_result');

export class ContentRecord {
  private readonly blocks = new Map<number, { block: Block; json: string }>();
  private server = false;

  start(index: number, started: Block): void {
    const block: Block = { ...started };
    // The streamed fields arrive as deltas after an empty start.
    if (block.type === 'text') block.text = typeof block.text === 'string' ? block.text : '';
    if (block.type === 'thinking') Object.assign(block, { thinking: typeof block.thinking === 'string' ? block.thinking : '', signature: typeof block.signature === 'string' ? block.signature : '' });
    this.blocks.set(index, { block, json: '' });
    this.server ||= isServerBlock(block.type);
  }

  delta(index: number, delta: Record<string, unknown> & { type: string }): void {
    const held = this.blocks.get(index);
    if (!held) return;
    const { block } = held;
    const add = (field: string, piece: unknown) => {
      if (typeof piece === 'string') block[field] = `${typeof block[field] === 'string' ? block[field] : ''}${piece}`;
    };
    if (delta.type === 'text_delta') add('text', delta.text);
    else if (delta.type === 'thinking_delta') add('thinking', delta.thinking);
    else if (delta.type === 'signature_delta') add('signature', delta.signature);
    else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') held.json += delta.partial_json;
    else if (delta.type === 'citations_delta' && delta.citation !== undefined) block.citations = [...(Array.isArray(block.citations) ? block.citations : []), delta.citation];
  }

  stop(index: number): void {
    const held = this.blocks.get(index);
    if (!held?.json) return;
    try {
      held.block.input = JSON.parse(held.json) as unknown;
    } catch {
      held.block.input = {};
    }
  }

  /** At the end: the whole content as a replay item, when it holds a server block (and fits the bound). */
  replay(): StreamEvent[] {
    if (!this.server) return [];
    const content = [...this.blocks.entries()].sort(([a], [b]) => a - b).map(([, held]) => held.block);
    if (jsonSize(content) > MAX_REPLAY_CHARS)
      return [
        { type: 'notice', text: `the answer's server-tool blocks passed ${MAX_REPLAY_CHARS} characters; they are not sent back, so a paused turn cannot go on and later requests carry only the text` },
      ];
    return [{ type: 'reasoning-replay', item: { type: 'content', content }, source: 'anthropic' }];
  }
}

/** An earlier answer's content as it came, when it was kept whole (see ContentRecord). */
export function contentReplayOf(message: Extract<ChatMessage, { role: 'assistant' }>): ContentBlockParam[] | undefined {
  const item = message.reasoning?.replay.find((entry) => entry.type === 'content' && Array.isArray(entry.content));
  return item ? (item.content as ContentBlockParam[]) : undefined;
}
