import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { KnowledgeBaseIdSchema, MAX_QUERY_CHARS } from '../../../shared/knowledge.js';
import { ModelIdSchema } from '../../../shared/models.js';
import { KnowledgeError } from '../../knowledge/knowledgeError.js';
import { dataResult, errorResult, quoted } from '../toolResults.js';
import { defineTool, type ToolModule } from '../types.js';

const baseId = KnowledgeBaseIdSchema.describe('Knowledge base id as list_knowledge_bases shows it');
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
/**
 * A model's string in a confirmation's sentence, in quotes it cannot close:
 * a file named `x" from knowledge base "scratch` (or one holding a line
 * break) would otherwise make the sentence name another base than the one
 * the call changes, and the CLI shows the sentence alone.
 */
/** A knowledge base failure the model can act on: its message and what to do, never a stack. */
async function guarded(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof KnowledgeError) return errorResult(`${error.message} [${error.code}]${error.hint ? `; ${error.hint}` : ''}`);
    throw error;
  }
}

const settingsShape = {
  description: z.string().max(4000).optional().describe('What the base holds, in a sentence'),
  embeddingModel: ModelIdSchema.nullable().optional().describe('Id of a model entry with an OpenAI-compatible /embeddings, or null to search by words only'),
  chunkSize: z.number().int().min(100).max(20_000).optional().describe('Characters per chunk (default 800)'),
  chunkOverlap: z.number().int().min(0).max(5_000).optional().describe('Characters a chunk repeats of the one before (default 100)'),
};

/** Knowledge bases (docs/rules/knowledge.md#the-settings-tools): the nine tools with their names and levels. */
export const knowledgeModule: ToolModule = {
  domain: 'knowledge',
  tools: [
    defineTool({
      name: 'list_knowledge_bases',
      description: 'List every knowledge base with its id, name, description, embedding model (null: search by words only), chunk settings, file and chunk counts and times.',
      permission: 'read',
      inputSchema: {},
      async handler(_args, ctx) {
        const bases = await ctx.knowledge.list();
        return dataResult(`${plural(bases.length, 'knowledge base')}.`, { knowledgeBases: bases });
      },
    }),
    defineTool({
      name: 'get_knowledge_base',
      description: "One knowledge base's settings and counts, and whether its vectors are from its current embedding model.",
      permission: 'read',
      inputSchema: { id: baseId },
      handler: ({ id }, ctx) =>
        guarded(async () => {
          const base = await ctx.knowledge.get(id);
          const stale = base.embeddingModel !== null && base.counts.chunks > 0 && base.embeddedWith?.model !== base.embeddingModel;
          return dataResult(
            `Knowledge base "${base.name}": ${plural(base.counts.files, 'file')}, ${plural(base.counts.chunks, 'chunk')}${stale ? '; its vectors are not from its current model (re-embed it)' : ''}.`,
            { knowledgeBase: base },
          );
        }),
    }),
    defineTool({
      name: 'create_knowledge_base',
      description: 'Create a knowledge base. Without an embeddingModel it searches by words only; with one, chunks and queries are sent to that model entry for embeddings.',
      permission: 'confirm',
      risk: 'medium',
      inputSchema: { name: z.string().min(1).max(200).describe('Its name, e.g. "Product docs"'), ...settingsShape },
      summary: ({ name, embeddingModel }) => `Create knowledge base ${quoted(name)} ${embeddingModel ? `embedding with model ${quoted(embeddingModel)}` : 'searching by words only'}`,
      handler: (args, ctx) =>
        guarded(async () => {
          const base = await ctx.knowledge.create(Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined)));
          return dataResult(`Created knowledge base "${base.name}" (id ${base.id}).`, { knowledgeBase: base });
        }),
    }),
    defineTool({
      name: 'update_knowledge_base',
      description:
        "Change a knowledge base's name, description, embedding model or chunk settings. A new embedding model re-embeds every chunk with it (if that fails, nothing changes); a new chunk size applies to documents added afterwards. " +
        'A change of the embedding model, the name or the description asks the user first.',
      permission: 'write',
      // The embedding model decides where every chunk is sent: a change moves the base's text to another endpoint.
      // Its name and description are what every agent searching it reads in knowledge_search's description.
      lowRisk: { id: 'any', chunkSize: 'any', chunkOverlap: 'any' },
      risk: 'high',
      summary: ({ id, name, description, embeddingModel, chunkSize, chunkOverlap }) => {
        const changes = [
          ...(name === undefined ? [] : [`name to ${quoted(name)}`]),
          ...(description === undefined ? [] : [`description to ${quoted(description)} (every agent searching it reads it)`]),
          ...(embeddingModel === undefined
            ? []
            : [embeddingModel === null ? 'search by words only (no embedding model)' : `embed with model ${quoted(embeddingModel)}: every chunk of it, and every query, is sent to that model's URL`]),
          ...(chunkSize === undefined && chunkOverlap === undefined ? [] : ['its chunk settings']),
        ];
        return `Change knowledge base ${quoted(id)}: ${changes.length ? changes.join('; ') : 'nothing'}`;
      },
      inputSchema: { id: baseId, name: z.string().min(1).max(200).optional(), ...settingsShape },
      handler: ({ id, ...patch }, ctx) =>
        guarded(async () => {
          const base = await ctx.knowledge.update(id, Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)));
          return dataResult(`Updated knowledge base "${base.name}".`, { knowledgeBase: base });
        }),
    }),
    defineTool({
      name: 'delete_knowledge_base',
      description: 'Delete a knowledge base with all its documents and chunks. This cannot be undone.',
      permission: 'confirm',
      risk: 'high',
      inputSchema: { id: baseId },
      summary: ({ id }) => `Delete knowledge base ${quoted(id)} with all its documents`,
      handler: ({ id }, ctx) =>
        guarded(async () => {
          const base = await ctx.knowledge.delete(id);
          return dataResult(`Deleted knowledge base "${base.name}" (${plural(base.counts.chunks, 'chunk')}).`, { deleted: base.id });
        }),
    }),
    defineTool({
      name: 'search_knowledge_base',
      description:
        'Search a knowledge base: by words (BM25) and, when it has embeddings, by meaning too. Returns the best chunks with their score, source file, position and heading. Cite the file (and heading) of the chunks you use.',
      permission: 'read',
      inputSchema: {
        id: baseId,
        query: z.string().min(1).max(MAX_QUERY_CHARS).describe('What to look for, in words'),
        limit: z.number().int().min(1).max(50).optional().describe('How many chunks (default 5)'),
      },
      handler: ({ id, query, limit }, ctx) =>
        guarded(async () => {
          const result = await ctx.knowledge.search(id, query, limit ? { limit } : {});
          return dataResult(`${plural(result.hits.length, 'chunk')} found (${result.mode} search)${result.note ? `; ${result.note}` : ''}.`, { knowledgeBaseId: id, ...result });
        }),
    }),
    defineTool({
      name: 'list_documents',
      description: "List a knowledge base's chunks, a page at a time (by file, then position), with every file's chunk count. Give `file` to list one file's chunks.",
      permission: 'read',
      inputSchema: {
        id: baseId,
        file: z.string().optional().describe('Only this source file'),
        offset: z.number().int().min(0).optional().describe('Chunks to skip (default 0)'),
        limit: z.number().int().min(1).max(500).optional().describe('Chunks per page (default 50)'),
      },
      handler: ({ id, ...page }, ctx) =>
        guarded(async () => {
          const result = await ctx.knowledge.listDocuments(id, page);
          return dataResult(
            `${plural(result.files.length, 'file')}, ${plural(result.total, 'chunk')}${page.file ? ` in "${page.file}"` : ''}; showing ${result.chunks.length} from ${result.offset}.`,
            { knowledgeBaseId: id, ...result },
          );
        }),
    }),
    defineTool({
      name: 'add_document',
      description: 'Add a text to a knowledge base: it is split into chunks and, when the base has an embedding model, embedded. A text added again under the same title replaces the old one.',
      permission: 'confirm',
      risk: 'medium',
      inputSchema: {
        id: baseId,
        text: z.string().min(1).max(5_000_000).describe('The text (Markdown welcome)'),
        title: z.string().max(200).optional().describe('Its source name, shown with every chunk (default "text")'),
      },
      summary: ({ id, text, title }) => `Add ${quoted(title?.trim() || 'text')} (${text.length} characters) to knowledge base ${quoted(id)}`,
      handler: ({ id, text, title }, ctx) =>
        guarded(async () => {
          const added = await ctx.knowledge.addText(id, text, title ?? 'text');
          return dataResult(`Added "${added.file}" as ${plural(added.chunks, 'chunk')}${added.embedded ? ', embedded' : ''}${added.replaced ? ` (replacing ${added.replaced})` : ''}.`, {
            knowledgeBaseId: id,
            ...added,
          });
        }),
    }),
    defineTool({
      name: 'delete_document',
      description: 'Delete one chunk (chunkId, as list_documents shows it) or every chunk of one source file (file) from a knowledge base.',
      permission: 'confirm',
      risk: 'high',
      inputSchema: { id: baseId, chunkId: z.string().optional().describe("One chunk's id"), file: z.string().optional().describe('A source file: all its chunks') },
      summary: ({ id, chunkId, file }) =>
        file !== undefined && chunkId === undefined
          ? `Delete every chunk of ${quoted(file)} from knowledge base ${quoted(id)}`
          : `Delete chunk ${chunkId === undefined ? '(none given)' : quoted(chunkId)} from knowledge base ${quoted(id)}`,
      handler: ({ id, chunkId, file }, ctx) =>
        guarded(async () => {
          if ((chunkId === undefined) === (file === undefined)) return errorResult('give exactly one of chunkId (one chunk) or file (all chunks of a file)');
          if (file !== undefined) {
            const count = await ctx.knowledge.deleteFile(id, file);
            return dataResult(`Deleted "${file}" (${plural(count, 'chunk')}).`, { knowledgeBaseId: id, file, deleted: count });
          }
          const chunk = await ctx.knowledge.deleteChunk(id, chunkId!);
          return dataResult(`Deleted chunk ${chunk.position} of "${chunk.file}".`, { knowledgeBaseId: id, chunkId: chunk.id, file: chunk.file, deleted: 1 });
        }),
    }),
  ],
};
