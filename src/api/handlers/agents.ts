import { randomUUID } from 'node:crypto';
import { resolveAgent } from '../../core/agents/agentResolver.js';
import { AgentError } from '../../core/agents/agentStore.js';
import { readyAssistantInput } from '../../core/agents/readyAssistant.js';
import { AgentInputSchema } from '../../shared/agents.js';
import { fieldsOf, type AgentPreview } from '../../shared/hostApi.js';
import { toolView } from '../toolOutcome.js';
import type { HandlerContext, Handlers } from './types.js';

export function agentHandlers({ host, emit }: HandlerContext): Handlers<'agents.list' | 'agents.save' | 'agents.createReady' | 'agents.delete' | 'agents.preview'> {
  return {
    'agents.list': () => ({ agents: host.agents.list() }),
    'agents.save': ({ id, agent }) => {
      const saved = id ? host.agents.update(id, agent) : host.agents.create(agent);
      emit({ type: 'agents.changed' });
      return { agent: saved };
    },
    'agents.createReady': ({ modelId, language }) => {
      if (!host.models.has(modelId)) throw new AgentError('AGENT_INVALID', `no model "${modelId}"`, [{ path: 'modelId', message: 'names no model entry' }]);
      const input = readyAssistantInput({ modelId, language }, { apps: host.catalog.apps, servers: host.registry.listServers(), taken: (id) => host.agents.get(id) !== undefined });
      const agent = host.agents.create(input);
      emit({ type: 'agents.changed' });
      return { agent };
    },
    'agents.delete': ({ id }) => {
      const deleted = host.agents.delete(id);
      if (deleted) emit({ type: 'agents.changed' });
      return { deleted };
    },
    // Live as the user edits: a draft that does not validate yet still shows its errors, and no tools.
    'agents.preview': async ({ agent }) => {
      const parsed = AgentInputSchema.safeParse(agent);
      if (!parsed.success) return { fieldErrors: fieldsOf(parsed.error), main: [], sub: [], prompt: { text: '', parts: [] }, problems: [] };
      const resolved = resolveAgent({ ...parsed.data, id: parsed.data.id ?? 'draft' }, host);
      const preview: AgentPreview = {
        fieldErrors: [],
        main: [],
        sub: [],
        prompt: { text: resolved.prompt.text, parts: resolved.prompt.parts.map(({ id, title, lang }) => ({ id, lang, ...(title ? { title } : {}) })) },
        problems: [...resolved.problems],
      };
      // One flow after the other: the first lists (and caches) each server's tools, the second reuses them.
      // An instance started to list them belongs to this preview alone and ends with it: the editor holds none.
      const conversationId = `agent-preview:${randomUUID()}`;
      try {
        for (const flow of ['main', 'sub'] as const) {
          const listed = await host.gateway.listTools(resolved.callerFor(flow, conversationId));
          preview[flow] = listed.tools.map(toolView);
          if (flow === 'main') preview.problems.push(...listed.problems);
        }
      } finally {
        await host.endConversation(conversationId);
      }
      return preview;
    },
  };
}
