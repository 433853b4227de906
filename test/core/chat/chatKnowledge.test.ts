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
      {
        kind: 'reply',
        toolCalls: [
          { id: 'k1', name: KNOWLEDGE_TOOL_NAME, arguments: { query: 'ladybugs aphids' } },
          { id: 'k2', name: KNOWLEDGE_TOOL_NAME, arguments: { knowledgeBaseId: 'secret', query: 'code' } },
        ],
      },
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

    // The search went through the gateway: each call is on the audit record, as a tool of the host.
    // (The two ran at the same time: in either order.)
    const audited = host.audit.query({ tool: KNOWLEDGE_TOOL_NAME });
    expect(audited.map((r) => [r.serverId, r.agentId, r.conversationId, r.permission, r.outcome]).sort((a, b) => String(a[4]).localeCompare(String(b[4])))).toEqual([
      ['chatos', 'helper', turn.conversationId, 'read', 'ok'],
      ['chatos', 'helper', turn.conversationId, 'read', 'tool-error'],
    ]);

    // An agent without knowledge bases is not offered the search.
    provider.enqueue({ kind: 'reply', text: 'no tools' });
    await host.chat.send({ agentId: 'plain', text: 'hi' }).done;
    expect(toolNames(provider.requests.at(-1)!.body)).not.toContain(KNOWLEDGE_TOOL_NAME);
  });

  it('is a tool the gateway offers and checks at each call: only to that agent, only over the bases attached now', async () => {
    const { host } = await startChatWorld({ servers: {}, agents: [agentUsing([], { knowledgeBases: ['garden', 'notes'] }), agentUsing([], { id: 'plain', name: 'Plain' })] });
    await host.knowledge.create({ id: 'garden', name: 'Garden', chunkSize: 200, chunkOverlap: 20 });
    await host.knowledge.addText('garden', GUIDE_MD, 'guide.md');
    await host.knowledge.create({ id: 'notes', name: 'Notes' });
    await host.knowledge.addText('notes', 'The safe code is 1234.', 'notes.md');
    const helper = { appId: 'chatos', agentId: 'helper', conversationId: 'c1', flow: 'main' as const };

    const listed = await host.gateway.listTools(helper);
    const offered = listed.tools.find((t) => t.name === KNOWLEDGE_TOOL_NAME)!;
    expect(offered).toMatchObject({ serverId: 'chatos', permission: 'read' });
    expect((offered.inputSchema as any).properties.knowledgeBaseId.enum).toEqual(['garden', 'notes']);
    expect((await host.gateway.listTools({ ...helper, agentId: 'plain' })).tools.map((t) => t.name)).not.toContain(KNOWLEDGE_TOOL_NAME);
    expect((await host.gateway.listTools({ appId: 'chatos', conversationId: 'c1', flow: 'main' })).tools.map((t) => t.name)).not.toContain(KNOWLEDGE_TOOL_NAME);

    const found = await host.gateway.callTool(helper, KNOWLEDGE_TOOL_NAME, { knowledgeBaseId: 'notes', query: 'safe code' });
    expect((found.result.content as any)[0].text).toContain('[notes.md #');
    expect(found.tool.serverId).toBe('chatos');

    // Detached now: the next call may not search it, though nothing was listed again.
    host.agents.update('helper', { ...agentUsing([], { knowledgeBases: ['garden'] }) });
    const refused = await host.gateway.callTool(helper, KNOWLEDGE_TOOL_NAME, { knowledgeBaseId: 'notes', query: 'safe code' });
    expect(refused.result.isError).toBe(true);
    expect((refused.result.content as any)[0].text).toMatch(/knowledge base "notes" is not one this agent may search/);
    expect((refused.result.content as any)[0].text).not.toContain('1234');
    // A caller without bases is not offered the name: it is an unknown tool, refused and audited.
    await expect(host.gateway.callTool({ ...helper, agentId: 'plain' }, KNOWLEDGE_TOOL_NAME, { query: 'safe code' })).rejects.toMatchObject({ code: 'UNKNOWN_TOOL' });
    expect(
      host.audit
        .query({ tool: KNOWLEDGE_TOOL_NAME })
        .reverse()
        .map((r) => [r.agentId, r.outcome]),
    ).toEqual([
      ['helper', 'ok'],
      ['helper', 'tool-error'],
      ['plain', 'refused'],
    ]);
  });

  it("refuses a query of a document's length: nothing is sent to the embedding model, nothing echoed back", async () => {
    const { host, provider } = await startChatWorld({ servers: {}, agents: [agentUsing([], { knowledgeBases: ['garden'] })] });
    await host.models.create({ id: 'embed', name: 'Embed', api: 'openai', baseUrl: provider.openaiUrl, model: 'embed-16d' });
    await host.knowledge.create({ id: 'garden', name: 'Garden', embeddingModel: 'embed', chunkSize: 200, chunkOverlap: 20 });
    await host.knowledge.addText('garden', GUIDE_MD, 'guide.md');
    const embeddings = () => provider.requests.filter((r) => r.path.endsWith('/embeddings')).length;
    const before = embeddings();
    const helper = { appId: 'chatos', agentId: 'helper', conversationId: 'c1', flow: 'main' as const };
    const query = 'where are the ladybugs '.repeat(50_000);
    const called = await host.gateway.callTool(helper, KNOWLEDGE_TOOL_NAME, { query });
    expect(called.result.isError).toBe(true);
    const text = (called.result.content as any)[0].text as string;
    expect(text).toMatch(/more than 2000/);
    expect(text.length).toBeLessThan(500);
    expect(embeddings()).toBe(before);
    // A question of a sentence is searched as before.
    const found = await host.gateway.callTool(helper, KNOWLEDGE_TOOL_NAME, { query: 'where are the ladybugs' });
    expect((found.result.content as any)[0].text).toContain('[guide.md #');
  });

  it('a base attached but gone is a problem of the turn, and nothing is offered for it', async () => {
    const { host, provider } = await startChatWorld({ servers: {}, agents: [agentUsing([], { knowledgeBases: ['gone'] })] });
    provider.enqueue({ kind: 'reply', text: 'ok' });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'hi' }).done;
    expect(outcome.problems).toEqual([expect.objectContaining({ code: 'AGENT_KB_MISSING', path: 'knowledgeBases[0]' })]);
    expect(toolNames(provider.requests[0]!.body)).not.toContain(KNOWLEDGE_TOOL_NAME);
  });
});
