import * as fs from 'node:fs';
import { confirm, onAsked } from '../../helpers/questions.js';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolConfirmationRequest } from '../../../src/shared/confirmation.js';
import { caller, startTestHost, textOf } from '../../helpers/gatewayHost.js';
import { startProviderServer } from '../../helpers/providerServer.js';
import { EventQueue } from '../../helpers/eventQueue.js';
import { knowledgeModule } from '../../../src/core/settingsServer/tools/knowledge.tools.js';

const NINE = [
  'list_knowledge_bases',
  'get_knowledge_base',
  'create_knowledge_base',
  'update_knowledge_base',
  'delete_knowledge_base',
  'search_knowledge_base',
  'list_documents',
  'add_document',
  'delete_document',
];

function confirmationsOf(host: Awaited<ReturnType<typeof startTestHost>>['host']) {
  const required = new EventQueue<ToolConfirmationRequest>();
  onAsked(host, 'toolConfirmation', required.push);
  return required;
}

const data = (result: { structuredContent?: unknown; isError?: boolean; content: unknown }) => {
  if (result.isError) throw new Error(`tool failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as any;
};

describe('the knowledge tools behind the gateway', () => {
  it('offers the nine tools of docs/rules/knowledge.md#the-settings-tools at their levels, all in the knowledge domain', async () => {
    const { host } = await startTestHost();
    const { tools } = await host.tools.list(caller());
    const levels = Object.fromEntries(
      tools
        .filter((t) => t.serverId === 'chatos::settings' && NINE.some((n) => t.name === `mcp_settings_${n}`))
        .map((t) => [t.name.replace('mcp_settings_', ''), `${t.permission}/${t.permissionSource}`]),
    );
    expect(levels).toEqual({
      list_knowledge_bases: 'read/config',
      get_knowledge_base: 'read/config',
      create_knowledge_base: 'confirm/config',
      update_knowledge_base: 'write/config',
      delete_knowledge_base: 'confirm/config',
      search_knowledge_base: 'read/config',
      list_documents: 'read/config',
      add_document: 'confirm/config',
      delete_document: 'confirm/config',
    });
    expect(knowledgeModule.tools.map((t) => t.name)).toEqual(NINE);
    const listed = (await host.mcp.servers.tools('chatos::settings')).tools.filter((t) => NINE.includes(t.rawName));
    expect(new Set(listed.map((t) => t.domain))).toEqual(new Set(['knowledge']));
  });

  it('never runs a confirm tool before approval; read tools and low-risk writes run at once', async () => {
    const provider = await startProviderServer();
    const { host, home } = await startTestHost();
    await host.models.create({ id: 'embed', name: 'Embed', api: 'openai', baseUrl: provider.openaiUrl, model: 'embed-16d' });
    const asks = confirmationsOf(host);
    const knowledgeDir = path.join(home, 'chatos', 'knowledge');

    // Create: pending means not run; declined leaves nothing; approved creates.
    const declined = host.tools.call(caller(), 'mcp_settings_create_knowledge_base', { name: 'Garden' });
    const ask = await asks.next();
    expect(ask).toMatchObject({ toolName: 'mcp_settings_create_knowledge_base', summary: 'Create knowledge base "Garden" searching by words only', risk: 'medium' });
    expect(fs.existsSync(knowledgeDir) ? fs.readdirSync(knowledgeDir) : []).toEqual([]);
    confirm(host, ask.id, false);
    expect((await declined).decision).toBe('declined');
    expect(await host.knowledge.list()).toEqual([]);

    const creating = host.tools.call(caller(), 'mcp_settings_create_knowledge_base', { name: 'Garden', embeddingModel: 'embed', chunkSize: 200, chunkOverlap: 20 });
    confirm(host, (await asks.next()).id, true);
    const created = await creating;
    expect(created.decision).toBe('approved');
    expect(data(created.result).knowledgeBase).toMatchObject({ id: 'garden', embeddingModel: 'embed' });
    // Making the base checked its model with one embeddings request.
    expect(provider.requests.map((r) => r.body.input)).toEqual([['ChatOS embedding check']]);

    // Add a document: asks, and nothing more reaches the embedding model before the answer.
    const adding = host.tools.call(caller(), 'mcp_settings_add_document', {
      id: 'garden',
      title: 'pests.md',
      text: '# Pests\n\nLadybugs eat aphids under the leaves.\n\n# Soil\n\nTomatoes like compost.',
    });
    const addAsk = await asks.next();
    expect(addAsk.summary).toMatch(/^Add "pests\.md" \(\d+ characters\) to knowledge base "garden"$/);
    expect(provider.requests).toHaveLength(1);
    confirm(host, addAsk.id, true);
    expect(data((await adding).result)).toMatchObject({ file: 'pests.md', embedded: true });

    const search = await host.tools.call(caller(), 'mcp_settings_search_knowledge_base', { id: 'garden', query: 'aphids' });
    expect(search.decision).toBe('auto');
    expect(data(search.result)).toMatchObject({ mode: 'hybrid', hits: [{ file: 'pests.md', heading: 'Pests' }] });
    const listed = data((await host.tools.call(caller(), 'mcp_settings_list_documents', { id: 'garden' })).result);
    expect(listed.files).toEqual([{ file: 'pests.md', chunks: listed.total }]);
    expect(data((await host.tools.call(caller(), 'mcp_settings_list_knowledge_bases', {})).result).knowledgeBases).toHaveLength(1);

    // The assistant can attach a base to an agent (update_agent, a write): it widens what the agent reads, so it asks.
    host.agents.create({ id: 'reader', name: 'Reader' });
    const attaching = host.tools.call(caller(), 'mcp_settings_update_agent', { id: 'reader', knowledgeBases: ['garden'] });
    const attachAsk = await asks.next();
    expect(attachAsk).toMatchObject({ summary: 'Change agent "reader": knowledge bases it may search to ["garden"]', risk: 'high' });
    confirm(host, attachAsk.id, true);
    expect((await attaching).decision).toBe('approved');
    expect(host.agents.get('reader')?.knowledgeBases).toEqual(['garden']);

    // Chunk settings alone are a low-risk write; a description (every agent searching the base reads it) or a change of the embedding model asks.
    const rechunked = await host.tools.call(caller(), 'mcp_settings_update_knowledge_base', { id: 'garden', chunkSize: 500 });
    expect(rechunked.decision).toBe('auto');
    const updating = host.tools.call(caller(), 'mcp_settings_update_knowledge_base', { id: 'garden', description: 'Notes', embeddingModel: null });
    const modelAsk = await asks.next();
    expect(modelAsk).toMatchObject({
      summary: 'Change knowledge base "garden": description to "Notes" (every agent searching it reads it); search by words only (no embedding model)',
      risk: 'high',
    });
    confirm(host, modelAsk.id, true);
    const update = await updating;
    expect(update.decision).toBe('approved');
    expect(data(update.result).knowledgeBase).toMatchObject({ description: 'Notes', embeddingModel: null, embeddedWith: null });
    expect(textOf((await host.tools.call(caller(), 'mcp_settings_get_knowledge_base', { id: 'nope' })).result)).toMatch(/no knowledge base "nope" \[KB_NOT_FOUND\]; one of: garden/);

    // Delete a file: declined keeps it, approved removes its chunks.
    const keep = host.tools.call(caller(), 'mcp_settings_delete_document', { id: 'garden', file: 'pests.md' });
    const deleteAsk = await asks.next();
    expect(deleteAsk).toMatchObject({ summary: 'Delete every chunk of "pests.md" from knowledge base "garden"', risk: 'high' });
    confirm(host, deleteAsk.id, false);
    await keep;
    expect((await host.knowledge.get('garden')).counts.files).toBe(1);
    // A name cannot close its quotes and make the sentence name another base (the CLI shows the sentence alone).
    const spoof = 'pests.md" from knowledge base "scratch"\nRisk: low. Delete nothing from "x';
    const spoofing = host.tools.call(caller(), 'mcp_settings_delete_document', { id: 'garden', file: spoof });
    const spoofAsk = await asks.next();
    expect(spoofAsk.summary).toBe(`Delete every chunk of ${JSON.stringify(spoof)} from knowledge base "garden"`);
    expect(spoofAsk.summary).not.toContain('\n');
    expect(spoofAsk.summary.split('from knowledge base "')).toHaveLength(2);
    confirm(host, spoofAsk.id, false);
    await spoofing;
    const removing = host.tools.call(caller(), 'mcp_settings_delete_document', { id: 'garden', file: 'pests.md' });
    confirm(host, (await asks.next()).id, true);
    expect(data((await removing).result).deleted).toBe(listed.total);

    const dropping = host.tools.call(caller(), 'mcp_settings_delete_knowledge_base', { id: 'garden' });
    const dropAsk = await asks.next();
    expect(dropAsk.summary).toBe('Delete knowledge base "garden" with all its documents');
    expect(fs.readdirSync(knowledgeDir)).toEqual(['garden']);
    confirm(host, dropAsk.id, true);
    await dropping;
    expect(fs.readdirSync(knowledgeDir)).toEqual([]);
  });
});
