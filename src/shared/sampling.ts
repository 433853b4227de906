import { z } from 'zod';

/**
 * A server's request to sample the user's model (MCP `sampling/createMessage`,
 * spec 2025-11-25, docs/using/sampling.md): the host checks and bounds what
 * the server sent, then shows it to the user in two steps, each answered
 * with `questions.respond`: `review` (the system prompt and messages, which
 * the user may edit, approve or decline) and, once the model answered,
 * `completion` (the answer, sent to the server or declined).
 */

/** One content block of a sampling message, as the host checked it: text, an image, or (with tools) a tool use and its result. */
export const SamplingPartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  /** `data`: base64, without a `data:` prefix. */
  z.object({ type: z.literal('image'), mimeType: z.enum(['image/jpeg', 'image/png', 'image/gif', 'image/webp']), data: z.string() }),
  z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.record(z.string(), z.unknown()) }),
  /** A tool's result as text (the server ran the tool); `isError` when it failed. */
  z.object({ type: z.literal('tool_result'), toolUseId: z.string(), text: z.string(), isError: z.boolean().default(false) }),
]);
export type SamplingPart = z.infer<typeof SamplingPartSchema>;

export const SamplingMessageSchema = z.object({ role: z.enum(['user', 'assistant']), content: z.array(SamplingPartSchema) });
export type SamplingMessage = z.infer<typeof SamplingMessageSchema>;

/** What the model answered: shown to the user before the server gets it. */
export const SamplingCompletionSchema = z.object({
  /** The model's name as the provider knows it (what the server is told). */
  model: z.string(),
  /** The spec's stop reason: endTurn, maxTokens, toolUse, or the provider's own. */
  stopReason: z.string(),
  content: z.array(SamplingPartSchema),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }).optional(),
});
export type SamplingCompletion = z.infer<typeof SamplingCompletionSchema>;

export const SamplingRequestSchema = z.object({
  id: z.string(),
  /** The server asking: its id and the name a person knows it by. */
  serverId: z.string(),
  serverName: z.string(),
  /** The conversation whose tool call the request came during, when the host can tell. */
  conversationId: z.string().optional(),
  agentId: z.string().optional(),
  /** `review`: the user approves (perhaps edited) or declines the request; `running`: the model is answering; `completion`: the user sends or declines the answer. */
  stage: z.enum(['review', 'running', 'completion']),
  systemPrompt: z.string(),
  messages: z.array(SamplingMessageSchema),
  /** The tokens the model may answer with: the server's request, clamped by the host. */
  maxTokens: z.number().int().positive(),
  /** The tools the server offers the model for this request (names and descriptions; their schemas go to the model as sent). */
  tools: z.array(z.object({ name: z.string(), description: z.string() })),
  /** The model entry that answers (`chatos models list`). */
  modelId: z.string(),
  completion: SamplingCompletionSchema.optional(),
  createdAt: z.number(),
  /** After this the host declines for the user. */
  expiresAt: z.number(),
});
export type SamplingRequest = z.infer<typeof SamplingRequestSchema>;

/** What the user may change before approving: the system prompt, the messages, fewer tokens. Checked like the server's request. */
export const SamplingEditsSchema = z
  .object({
    systemPrompt: z.string().optional(),
    messages: z.array(SamplingMessageSchema).optional(),
    maxTokens: z.number().int().positive().optional(),
  })
  .strict();
export type SamplingEdits = z.infer<typeof SamplingEditsSchema>;

/**
 * The user's answer: `approve` a request under review (with edits; `always`
 * remembers approval for this server), `send` a completion, `decline` either.
 */
export const SamplingAnswerSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('approve'), edits: SamplingEditsSchema.optional(), always: z.boolean().optional() }).strict(),
  z.object({ action: z.literal('send') }).strict(),
  z.object({ action: z.literal('decline') }).strict(),
]);
export type SamplingAnswer = z.infer<typeof SamplingAnswerSchema>;

/** How a request ended: sent, declined (by the user), expired (nobody answered), withdrawn (the call ended), failed (the model failed). */
export const SamplingOutcomeSchema = z.enum(['sent', 'declined', 'expired', 'withdrawn', 'failed']);
export type SamplingOutcome = z.infer<typeof SamplingOutcomeSchema>;
