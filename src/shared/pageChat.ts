import { z } from 'zod';

/**
 * The chat API of a UI app's page (`host.chat.*`, the original ChatOS page
 * API): each call as the shell forwards it to the host, for the app its
 * frame is bound to. The host answers only with that app's own agents and
 * their conversations ("sessions").
 */

const Id = z.string().min(1).max(256);
const Text = z.string().max(100_000);
const Ids = z.array(Id).max(200);

/** What a page may set on an agent it owns; the rest (the app it acts as, its owner, its app) is the host's. */
export const PageAgentFieldsSchema = z
  .object({
    name: z.string().min(1).max(200),
    description: Text,
    language: z.enum(['zh', 'en']),
    modelId: Id,
    /** The agent's own instructions (`systemPrompt`; the original page API calls it `prompt`). */
    prompt: Text,
    systemPrompt: Text,
    /** Other agents of this app it may delegate to. */
    subAgents: Ids,
    /** Servers and prompts of this app's selection (its own server is always on). */
    mcpServerIds: Ids,
    promptIds: Ids,
  })
  .partial();
export type PageAgentFields = z.infer<typeof PageAgentFieldsSchema>;

/** Fields a page adds that the host does not know (the original's `workspaceRoot`, `skills`…) are dropped, not refused. */
export const PageChatRequestSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('agents.list') }),
  z.object({ op: z.literal('agents.ensureDefault') }),
  z.object({ op: z.literal('agents.create'), agent: PageAgentFieldsSchema }),
  z.object({ op: z.literal('agents.createForApp'), agent: PageAgentFieldsSchema }),
  z.object({ op: z.literal('agents.update'), id: Id, patch: PageAgentFieldsSchema }),
  z.object({ op: z.literal('agents.delete'), id: Id }),
  z.object({ op: z.literal('sessions.list') }),
  z.object({ op: z.literal('sessions.ensureDefault'), agentId: Id.optional() }),
  z.object({ op: z.literal('sessions.create'), agentId: Id.optional(), title: z.string().max(500).optional() }),
  z.object({ op: z.literal('messages.list'), sessionId: Id, limit: z.number().int().min(1).max(10_000).optional() }),
  z.object({ op: z.literal('send'), sessionId: Id, text: z.string().min(1).max(200_000) }),
  z.object({ op: z.literal('abort'), sessionId: Id }),
]);
export type PageChatRequest = z.infer<typeof PageChatRequestSchema>;

/** A conversation as a page sees it. */
export const PageSessionSchema = z.object({ id: z.string(), agentId: z.string(), title: z.string(), createdAt: z.number(), updatedAt: z.number(), status: z.string() });
export type PageSession = z.infer<typeof PageSessionSchema>;
