import { z } from 'zod';

/**
 * What the conversation loop asks a model, in no vendor's terms. Each client
 * (openaiChat, openaiResponses, anthropicMessages) translates it to its wire
 * format; the loop never sees a vendor type.
 */

/** The image types every supported API accepts; anything else reaches a model as a text note (docs/rules/chat.md#images). */
export const ImageMimeTypeSchema = z.enum(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
export type ImageMimeType = z.infer<typeof ImageMimeTypeSchema>;
export const IMAGE_MIME_TYPES: readonly string[] = ImageMimeTypeSchema.options;

export const ContentPartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  /** `data`: base64, without a `data:` prefix. */
  z.object({ type: z.literal('image'), mimeType: ImageMimeTypeSchema, data: z.string() }),
]);
export type ContentPart = z.infer<typeof ContentPartSchema>;

/** A tool call as the model made it: its arguments exactly as sent (they may not parse), and what the provider wants back with it. */
export const ToolCallSchema = z.object({ id: z.string(), name: z.string(), argumentsText: z.string(), extraContent: z.record(z.string(), z.unknown()).optional() });

/**
 * What the model thought before an earlier answer, for providers that want
 * it back: given only for answers of the same model entry (history.ts), and
 * each client sends what its provider requires (see sentReasoning).
 */
export const SentReasoningSchema = z.object({
  text: z.string(),
  source: z.string().optional(),
  replay: z.array(z.record(z.string(), z.unknown())).default([]),
});

export const ChatMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), content: z.array(ContentPartSchema) }),
  z.object({
    role: z.literal('assistant'),
    text: z.string().default(''),
    toolCalls: z.array(ToolCallSchema).default([]),
    reasoning: SentReasoningSchema.optional(),
  }),
  /** The result of one tool call; `callId` is the call's id. */
  z.object({ role: z.literal('tool'), callId: z.string(), name: z.string(), content: z.array(ContentPartSchema), isError: z.boolean().default(false) }),
]);
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/** A tool as offered to a model: its name, description and JSON schema for its arguments. */
export const ToolSpecSchema = z.object({ name: z.string(), description: z.string(), inputSchema: z.record(z.string(), z.unknown()) });
export type ToolSpec = z.infer<typeof ToolSpecSchema>;

export const ModelParamsSchema = z.object({ temperature: z.number().optional(), maxTokens: z.number().int().optional() });

export const ModelRequestSchema = z.object({
  system: z.string().default(''),
  messages: z.array(ChatMessageSchema),
  tools: z.array(ToolSpecSchema).default([]),
  /** Overrides the model entry's own temperature and max tokens for this request. */
  params: ModelParamsSchema.default({}),
});
export type ModelRequest = z.input<typeof ModelRequestSchema>;

/** `user` text in one part. */
export const userText = (text: string): ChatMessage => ({ role: 'user', content: [{ type: 'text', text }] });
