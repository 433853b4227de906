import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ConversationMessage } from '../../src/shared/chat.js';

/**
 * A long agent conversation written as the host writes one: its lines in
 * `<conversations>/<id>/messages.jsonl`. Each turn is four messages, as a
 * tool-using agent's are: a user question, an answer that calls a tool, the
 * tool's result, and a Markdown answer with a list, a table and code. The
 * words of each turn are its own (`turn 17`, `needle-17`), so a test can
 * search for one old turn and find only it.
 */

const STATS = { durationMs: 900, ttftMs: 300, tokensPerSecond: 40, inputTokens: 1200, outputTokens: 180, toolsSent: 4, attempts: 1 };

/** The messages of `count` (a multiple of 4 is a whole number of turns), each the child of the one before; ids `m<index>`. */
export function longConversationMessages(count: number, agentId: string, startAt = Date.UTC(2025, 0, 1)): ConversationMessage[] {
  const messages: ConversationMessage[] = [];
  const push = (make: (base: { id: string; parentId: string | null; at: number }) => ConversationMessage) => {
    const index = messages.length;
    messages.push(make({ id: `m${index}`, parentId: index === 0 ? null : `m${index - 1}`, at: startAt + index * 1000 }));
  };
  for (let turn = 0; messages.length < count; turn++) {
    const callId = `call-${turn}`;
    const steps: ((base: { id: string; parentId: string | null; at: number }) => ConversationMessage)[] = [
      (base) => ({ ...base, role: 'user', text: `Question ${turn}: how do I sum the squares in list needle-${turn}, and what does the file say?` }),
      (base) => ({
        ...base,
        role: 'assistant',
        agentId,
        modelId: 'local',
        text: `Let me read the file for turn ${turn}.`,
        toolCalls: [{ id: callId, name: 'mcp_files_read', argumentsText: JSON.stringify({ path: `notes/turn-${turn}.md` }) }],
        status: 'complete',
        stats: STATS,
      }),
      (base) => ({
        ...base,
        role: 'tool',
        callId,
        name: 'mcp_files_read',
        content: [{ type: 'text', text: `# Notes for turn ${turn}\n\nThe list holds ${turn % 7} items.\nEach item is a number between 1 and ${turn + 10}.` }],
        isError: false,
        status: 'ok',
        durationMs: 12,
        serverId: 'chatos::files',
      }),
      (base) => ({
        ...base,
        role: 'assistant',
        agentId,
        modelId: 'local',
        text: [
          `## Turn ${turn}\n\nThe file says the list holds **${turn % 7} items**. Square each and add them up:`,
          `- read the list\n- square every item\n- add the squares`,
          `| item | square |\n|---|---|\n| 2 | 4 |\n| ${turn} | ${turn * turn} |`,
          '```python\ndef sum_of_squares(items):\n    return sum(item * item for item in items)\n```',
          `That is all for turn ${turn}.`,
        ].join('\n\n'),
        toolCalls: [],
        status: 'complete',
        stats: STATS,
      }),
    ];
    for (const step of steps) if (messages.length < count) push(step);
  }
  return messages;
}

/** Writes `messages` as the conversation's log (its folder made private, as the host makes it). */
export function writeConversationLog(conversationsDir: string, conversationId: string, messages: readonly ConversationMessage[]): string {
  const folder = path.join(conversationsDir, conversationId);
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  const file = path.join(folder, 'messages.jsonl');
  fs.writeFileSync(file, messages.map((m) => `${JSON.stringify(m)}\n`).join(''), { mode: 0o600 });
  return file;
}
