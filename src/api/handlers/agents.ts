import { AgentInputSchema } from '../../shared/agents.js';
import { fieldsOf, type AgentPreview } from '../../shared/hostApi.js';
import { toolView } from '../toolOutcome.js';
import type { HandlerContext, Handlers } from './types.js';

type AgentMethods =
  'agents.list' | 'agents.save' | 'agents.createReady' | 'agents.addBuiltin' | 'agents.delete' | 'agents.preview' | 'memory.list' | 'memory.remember' | 'memory.update' | 'memory.forget';

export function agentHandlers({ host, emit }: HandlerContext): Handlers<AgentMethods> {
  return {
    'agents.list': () => ({ agents: host.agents.list() }),
    'agents.save': ({ id, agent }) => {
      const saved = id ? host.agents.update(id, agent) : host.agents.create(agent);
      emit({ type: 'agents.changed' });
      return { agent: saved };
    },
    'agents.createReady': async ({ modelId, language }) => {
      const agent = await host.agents.createReady({ modelId, language });
      emit({ type: 'agents.changed' });
      return { agent };
    },
    'agents.addBuiltin': async ({ agentId, name }) => {
      const agent = await host.agents.addBuiltin(agentId, name);
      // The switch changed mcp.yaml too; its own event comes from the reload.
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
      if (!parsed.success) return { fieldErrors: fieldsOf(parsed.error), main: [], sub: [], prompt: { text: '', parts: [] }, serverInstructions: [], problems: [] };
      const { resolved, main, sub, instructions } = await host.agents.preview({ ...parsed.data, id: parsed.data.id ?? 'draft' });
      const preview: AgentPreview = {
        fieldErrors: [],
        main: main.tools.map(toolView),
        sub: sub.tools.map(toolView),
        prompt: { text: resolved.prompt.text, parts: resolved.prompt.parts.map(({ id, title, lang }) => ({ id, lang, ...(title ? { title } : {}) })) },
        serverInstructions: instructions,
        problems: [...resolved.problems, ...main.problems],
      };
      return preview;
    },
    'memory.list': ({ agentId, query, limit }) => host.agents.memory.list(agentId, { ...(query ? { query } : {}), ...(limit ? { limit } : {}) }),
    'memory.remember': async ({ agentId, text }) => ({ memory: await host.agents.memory.remember(agentId, text) }),
    'memory.update': async ({ agentId, id, text }) => ({ memory: await host.agents.memory.update(agentId, id, text) }),
    'memory.forget': async ({ agentId, id }) => ({ memory: await host.agents.memory.forget(agentId, id) }),
  };
}
