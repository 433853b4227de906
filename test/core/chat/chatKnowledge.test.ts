import { describe, expect, it } from 'vitest';
import { KNOWLEDGE_TOOL_NAME } from '../../../src/core/knowledge/knowledgeChatTool.js';
import { agentUsing, startChatWorld, toolResultsIn } from '../../helpers/chatWorld.js';
import { GUIDE_MD } from '../knowledge/knowledgeFixtures.js';

const toolNames = (body: any): string[] => (body.tools ?? []).map((t: any) => t.function?.name ?? t.name);

describe('an agent with knowledge bases attached', () => {
  it('is offered their search, reads the chunks with their sources, and cites the one it used', async () => {
    const { host, provider } = await startChatWorld({ servers: {}, agents: [agentUsing([], { knowledgeBases: ['garden'] }), agentUsing([], { id: 'plain', name: 'Plain' })] });
    await host.knowledge.create({ id: 'garden', name: 'Garden', chunkSize: 200, chunkOverlap: 20 });
    await host.knowledge.addText('garden', GUIDE_MD, 'guide.md');
    await host.knowledge.create({ id: 'secret', name: 'Not attached' });
    await host.knowledge.addText('secret', 'The safe code is 1234.', 'secret.md');
    const pests = (await host.knowledge.search('garden', 'ladybugs')).hits[0]!;
    const source = `[guide.md #${pests.position}]`;

    provider.enqueue(
      { kind: 'reply', toolCalls: [{ id: 'k1', name: KNOWLEDGE_TOOL_NAME, arguments: { query: 'ladybugs aphids' } }, { id: 'k2', name: KNOWLEDGE_TOOL_NAME, arguments: { knowledgeBaseId: 'secret', query: 'code' } }] },
      { kind: 'reply', text: `Plant marigolds: they invite ladybugs, which eat aphids ${source}.` },
    );
    const turn = host.chat.send({ agentId: 'helper', text: 'How do I get rid of aphids?' });
    const outcome = await turn.done;
    expect(outcome.status).toBe('done');

    const [first, second] = await provider.waitForRequests(2);
    expect(toolNames(first!.body)).toContain(KNOWLEDGE_TOOL_NAME);
    expect(JSON.stringify(first!.body)).toContain('cite its source');
    const results = new Map(toolResultsIn(second!.body));
    expect(results.get('k1')).toContain(`source ${source} under "Pests"`);
    expect(results.get('k1')).toContain('Ladybugs eat aphids');
    // A base the agent does not have is not searched.
    expect(results.get('k2')).toMatch(/knowledge base "secret" is not one this agent may search/);
    expect(results.get('k2')).not.toContain('1234');

    const messages = host.chat.get(turn.conversationId).messages;
    const tools = messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => [m.name, m.status])).toEqual([
      [KNOWLEDGE_TOOL_NAME, 'ok'],
      [KNOWLEDGE_TOOL_NAME, 'error'],
    ]);
    const answer = messages.at(-1)!;
    expect(answer.role === 'assistant' && answer.text).toContain(source);

    // An agent without knowledge bases is not offered the search.
    provider.enqueue({ kind: 'reply', text: 'no tools' });
    await host.chat.send({ agentId: 'plain', text: 'hi' }).done;
    expect(toolNames(provider.requests.at(-1)!.body)).not.toContain(KNOWLEDGE_TOOL_NAME);
  });

  it('a base attached but gone is a problem of the turn, and nothing is offered for it', async () => {
    const { host, provider } = await startChatWorld({ servers: {}, agents: [agentUsing([], { knowledgeBases: ['gone'] })] });
    provider.enqueue({ kind: 'reply', text: 'ok' });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'hi' }).done;
    expect(outcome.problems).toEqual([expect.objectContaining({ code: 'AGENT_KB_MISSING', path: 'knowledgeBases[0]' })]);
    expect(toolNames(provider.requests[0]!.body)).not.toContain(KNOWLEDGE_TOOL_NAME);
  });
});
