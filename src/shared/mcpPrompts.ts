import { z } from 'zod';

/**
 * MCP prompts as the faces see them (docs/using/slash-commands.md): the
 * prompts of the servers a conversation's agent may use, each named by its
 * server; a prompt got with its arguments, as messages to send; and the
 * suggestions a server completes an argument with.
 */

/** Characters of one argument's value, of the name of one, and how many a prompt is given (docs/using/slash-commands.md#limits). */
export const MAX_PROMPT_ARG_CHARS = 10_000;
export const MAX_PROMPT_ARGS = 50;
/** Characters of what the user has typed that are sent to be completed. */
export const MAX_COMPLETE_CHARS = 1_000;

export const McpPromptArgumentSchema = z.object({ name: z.string(), description: z.string().optional(), required: z.boolean() });

export const McpPromptSchema = z.object({
  serverId: z.string(),
  serverName: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(McpPromptArgumentSchema),
});
export type McpPrompt = z.infer<typeof McpPromptSchema>;

/**
 * One piece of a prompt message: text, or an image. An embedded text resource, or a link to one, becomes text
 * naming its uri, and `resource` names it apart for a face to show.
 */
export const McpPromptContentSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string(), resource: z.string().optional() }),
  z.object({ type: z.literal('image'), mimeType: z.string(), data: z.string() }),
]);

export const McpPromptMessageSchema = z.object({ role: z.enum(['user', 'assistant']), content: z.array(McpPromptContentSchema) });
export type McpPromptMessage = z.infer<typeof McpPromptMessageSchema>;

export const GotPromptSchema = z.object({
  serverId: z.string(),
  name: z.string(),
  description: z.string().optional(),
  messages: z.array(McpPromptMessageSchema),
  /** What the host cut or left out of the server's result, in words (a result over the cap, a binary resource). */
  notes: z.array(z.string()),
});
export type GotPrompt = z.infer<typeof GotPromptSchema>;

export const PromptArgsSchema = z
  .record(z.string().max(200), z.string().max(MAX_PROMPT_ARG_CHARS))
  .refine((args) => Object.keys(args).length <= MAX_PROMPT_ARGS, { error: `at most ${MAX_PROMPT_ARGS} arguments` });
