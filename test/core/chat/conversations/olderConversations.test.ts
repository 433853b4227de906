import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AssistantMessage } from '../../../../src/shared/chat.js';
import { startChatWorld } from '../../../helpers/chatWorld.js';
import { repoRoot } from '../../../helpers/tempDir.js';

/**
 * A conversation file written before answers kept their reasoning, finish,
 * notices (test/fixtures/conversations/before-reasoning.jsonl, the lines as
 * the earlier code wrote them) still opens, and goes on.
 */
describe('a conversation written by the earlier code', { timeout: 60_000 }, () => {
  it('opens as it was and takes a new turn, which adds the new fields after the old lines', async () => {
    const { host, provider, home } = await startChatWorld();
    const { id } = host.chat.create('helper', 'older');
    const file = path.join(home, 'chatos', 'conversations', id, 'messages.jsonl');
    const before = fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'conversations', 'before-reasoning.jsonl'));
    fs.writeFileSync(file, before);
    const detail = host.chat.setBranch(id, '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d');
    expect(detail.notices).toEqual([]);
    expect(detail.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(detail.messages[1]).not.toHaveProperty('reasoning');

    provider.enqueue({ kind: 'fixture', name: 'deepseek-thinking-answer' });
    const outcome = await host.chat.send({ conversationId: id, text: 'and again?' }).done;
    expect(outcome.status, JSON.stringify(outcome.stop)).toBe('done');
    // The old turn went to the model as it was: its call, its result, its answer.
    expect(provider.requests[0]!.body.messages.map((m: any) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    const answer = outcome.messages.find((m): m is AssistantMessage => m.role === 'assistant')!;
    expect(answer).toMatchObject({ finish: 'stop', reasoning: { source: 'reasoning_content' } });
    // Appended, never rewritten: the old lines are as they were.
    expect(fs.readFileSync(file).subarray(0, before.length).equals(before)).toBe(true);
    expect(host.chat.get(id).messages).toHaveLength(6);
  });
});
