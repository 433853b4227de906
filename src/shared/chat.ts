import { z } from 'zod';
import { ProviderFailureSchema } from './models.js';
import { WorkspaceRootsSchema } from './workspaceRoots.js';

/**
 * Conversations (docs/rules/chat.md#where-conversations-live): what is stored, what the
 * faces are sent. A conversation's messages are lines of its own
 * `messages.jsonl` (append-only); the admin DB keeps only its index row.
 * Every message names its parent, so an edit or a regeneration starts a
 * branch and the earlier branch stays in the file, reachable.
 */

export const ConversationIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, { error: 'must be a conversation id (letters, digits, "_" and "-", at most 64)' });
export const MessageIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, { error: 'must be a message id' });

/**
 * The conversation a chat not started yet acts in (its agent's servers read resources and list prompts for it, on an
 * instance of its own released when idle like any other): where a method takes an optional conversation, none means this.
 */
export const DRAFT_CONVERSATION_ID = 'chat-draft';

/** Why an answer or a conversation stopped before the model finished. */
export const StopKindSchema = z.enum([
  /** The user pressed Stop (or Ctrl+C). */
  'user',
  /** A request failed and is not retried (or no longer): the provider rejected it, a key is wrong, tries ran out. */
  'error',
  /** The model kept asking for tools past the turn's limit of rounds. */
  'round-limit',
  /** The process running it ended (killed, crashed) before the answer was complete. */
  'interrupted',
  /** The answer passed the size limit (chat.maxAnswerChars): the stream was stopped and the answer kept up to the limit. */
  'answer-limit',
]);

export const StopInfoSchema = z.object({
  kind: StopKindSchema,
  message: z.string(),
  /** A coded cause (`PROVIDER_REJECTED`, `MODEL_KEY_MISSING`, `TOO_MANY_TOOLS`…), for faces to branch on. */
  code: z.string().optional(),
  hint: z.string().optional(),
  /** For a failed model request: what the provider said (never a key). */
  provider: ProviderFailureSchema.optional(),
  modelId: z.string().optional(),
});
export type StopInfo = z.infer<typeof StopInfoSchema>;

/** The numbers of one answer (one model request that succeeded or was stopped). */
export const AnswerStatsSchema = z.object({
  /** From sending the request to its first text or tool call. */
  ttftMs: z.number().optional(),
  durationMs: z.number(),
  /** Output tokens per second after the first token. */
  tokensPerSecond: z.number().optional(),
  inputTokens: z.number().optional(),
  outputTokens: z.number().optional(),
  /** US dollars, where the model entry gives prices. */
  cost: z.number().optional(),
  /** How many tools the request offered. */
  toolsSent: z.number().int(),
  /** Requests made for it (1 unless retried). */
  attempts: z.number().int().min(1),
  /** Of the output tokens, those spent thinking, where the provider says. */
  reasoningTokens: z.number().optional(),
});
export type AnswerStats = z.infer<typeof AnswerStatsSchema>;

export const ToolCallRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  argumentsText: z.string(),
  /** What the provider attached to the call and wants back with it (Gemini's `extra_content.google.thought_signature`). */
  extraContent: z.record(z.string(), z.unknown()).optional(),
});
export type ToolCallRecord = z.infer<typeof ToolCallRecordSchema>;

/** What a tool result holds as stored: text, an image saved in the conversation's artifacts, or a note in place of what could not be kept. */
export const ToolContentItemSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  /** `artifact`: the path relative to the conversation's folder (`artifacts/mcp/<server>/<tool>/<ts>-<uuid>.<ext>`). */
  z.object({ type: z.literal('image'), mimeType: z.string(), artifact: z.string(), byteLength: z.number().int() }),
  /** `link`: a server's `resource_link` the note names (the card opens it through the host's checked read: docs/using/resources.md#in-tool-results). */
  z.object({ type: z.literal('note'), text: z.string(), link: z.object({ uri: z.string(), name: z.string().optional() }).optional() }),
  /** Told to the model only (the gateway's lease reminder: "call mcp_release when done"): a face does not show it to people. */
  z.object({ type: z.literal('reminder'), text: z.string() }),
]);
export type ToolContentItem = z.infer<typeof ToolContentItemSchema>;

/** How a tool call ended, as the conversation shows it. */
export const ToolCallStatusSchema = z.enum(['ok', 'error', 'declined', 'refused', 'cancelled']);
export type ToolCallStatus = z.infer<typeof ToolCallStatusSchema>;

const base = { id: MessageIdSchema, parentId: MessageIdSchema.nullable(), at: z.number() };

/**
 * What the model thought before it answered, kept apart from the answer.
 * `replay`: the provider's own items that must go back to it unchanged
 * (Anthropic thinking blocks with their signatures, Responses reasoning
 * items with `encrypted_content`, OpenRouter `reasoning_details`); only the
 * same model entry is ever sent them.
 */
export const ReasoningSchema = z.object({
  text: z.string(),
  /** From its first piece to the first piece of the answer (or its last piece). */
  durationMs: z.number().optional(),
  /** How it came: `reasoning_content` (DeepSeek, Qwen, vLLM), `reasoning` (Ollama, OpenRouter, newer vLLM), `<think>` tags, a `thinking` content part (Mistral), Anthropic thinking blocks, Responses reasoning summaries. */
  source: z.enum(['reasoning_content', 'reasoning', 'reasoning_details', 'think-tags', 'thinking-part', 'anthropic', 'responses']).optional(),
  /** The text was longer than a conversation keeps: only its start is here. */
  truncated: z.boolean().optional(),
  replay: z.array(z.record(z.string(), z.unknown())).optional(),
});

/**
 * Why the model ended its answer: `length` (cut at the token limit), `refusal`, `content-filter` (the provider's filter
 * stopped it), `pause` (the provider paused a long turn of its server tools: the next answer goes on with it).
 */
export const FinishSchema = z.enum(['stop', 'tool-calls', 'length', 'content-filter', 'refusal', 'pause', 'other']);

/**
 * A file the user attached to a message (docs/using/chat.md#attachments),
 * kept in the conversation's folder: an image as it came, a document as the
 * text read from it once, when it was attached (and its original bytes
 * beside it, `original`). `artifact`: the path in the
 * conversation's folder (`artifacts/attachments/<ts>-<uuid>.<ext>`).
 */
/** An attachment read from an MCP server's resource (docs/using/resources.md#mention): the server and the resource's uri. */
const AttachedResourceSchema = z.object({ serverId: z.string(), uri: z.string() });

export const AttachmentSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('image'), name: z.string(), mimeType: z.string(), byteLength: z.number().int(), artifact: z.string(), resource: AttachedResourceSchema.optional() }),
  z.object({
    kind: z.literal('document'),
    name: z.string(),
    resource: AttachedResourceSchema.optional(),
    mimeType: z.string(),
    /** The size of the file attached (its text is in `artifact`). */
    byteLength: z.number().int(),
    artifact: z.string(),
    /** The file as it was attached (`…-original.<ext>`, its type's extension), for the user to open; absent in messages written before originals were kept. */
    original: z.string().optional(),
    /** Characters of text kept (and given to the model). */
    chars: z.number().int(),
    /** The text had more characters than a message carries: only the first `chars` of `totalChars` were kept. */
    totalChars: z.number().int().optional(),
    /** What reading it changed, for the user (an HTML page's elements nested too deep, flattened). */
    notes: z.array(z.string()).optional(),
  }),
]);
export type Attachment = z.infer<typeof AttachmentSchema>;

/** An attachment read and waiting for the message that names it (by `id`); none of it is in a conversation yet. */
export const PendingAttachmentSchema = z.object({
  id: z.string(),
  kind: z.enum(['image', 'document']),
  name: z.string(),
  mimeType: z.string(),
  byteLength: z.number().int(),
  chars: z.number().int().optional(),
  totalChars: z.number().int().optional(),
  resource: AttachedResourceSchema.optional(),
});
export type PendingAttachment = z.infer<typeof PendingAttachmentSchema>;

/**
 * Who posted a message the user did not type (docs/rules/app-messages.md): an MCP App's view, the canvas, a
 * UI app's page. The face that hosts the app names it from what it knows (the tool card's server), never from
 * what the app says about itself.
 */
export const AppSourceSchema = z
  .object({
    kind: z.enum(['mcp-app', 'canvas', 'ui-app']),
    /** The app's server id (mcp-app), the canvas instance id, or the UI app's `pluginId.appId`. */
    id: z.string().min(1).max(200),
    /** Shown with the message. */
    name: z.string().min(1).max(100),
  })
  .strict();
export type AppSource = z.infer<typeof AppSourceSchema>;

/** A message that came from an MCP prompt (docs/using/slash-commands.md#what-is-sent): the server and the prompt's name. */
export const PromptSourceSchema = z.object({ serverId: z.string(), name: z.string() });
export type PromptSource = z.infer<typeof PromptSourceSchema>;

/**
 * What an app's view told the model (docs/rules/app-messages.md#context-from-an-app): its latest
 * `ui/update-model-context`, as text, carried by the next message sent. `text` is already cut to the cap.
 */
export const AppContextSchema = z.object({ from: AppSourceSchema, text: z.string() });
export type AppContext = z.infer<typeof AppContextSchema>;

/**
 * `attachments`: absent in messages without (and in every message written before they existed).
 * `from`: an app posted it (docs/rules/app-messages.md): shown as the app's and sent to the model marked as data
 * from that app; `state`, the app's state it sent with it.
 */
export const UserMessageSchema = z.object({
  ...base,
  role: z.literal('user'),
  text: z.string(),
  attachments: z.array(AttachmentSchema).optional(),
  from: AppSourceSchema.optional(),
  state: z.unknown().optional(),
  /** Sent from an MCP prompt (the user picked it; its text and images are the prompt's). */
  prompt: PromptSourceSchema.optional(),
  /** The apps' context pending when it was sent; absent when there was none. */
  appContext: z.array(AppContextSchema).optional(),
});

export const AssistantMessageSchema = z.object({
  ...base,
  role: z.literal('assistant'),
  agentId: z.string(),
  modelId: z.string(),
  text: z.string(),
  toolCalls: z.array(ToolCallRecordSchema).default([]),
  /** `stopped`: cut short; `stop` says why. */
  status: z.enum(['complete', 'stopped']),
  stop: StopInfoSchema.optional(),
  stats: AnswerStatsSchema,
  reasoning: ReasoningSchema.optional(),
  /** Absent in answers written before it was kept. */
  finish: FinishSchema.optional(),
  /** The model declined to answer (OpenAI `refusal`, Anthropic `stop_reason: refusal`): its words, or the provider's explanation. */
  refusal: z.string().optional(),
  /** What the host noticed about this answer and the user should know (an unknown part kept, a call the provider cut, ids the provider changed). */
  notices: z.array(z.string()).optional(),
  /** Content parts of a type the host does not show, kept as the provider sent them. */
  otherParts: z.array(z.record(z.string(), z.unknown())).optional(),
  /** An assistant turn an MCP prompt wrote (an example answer), not the model: it has no model's numbers. */
  prompt: PromptSourceSchema.optional(),
});

/** A call refused because its remote server needs the user to sign in: which server (the mcp.yaml name signs in). */
export const SignInAskSchema = z.object({ serverId: z.string(), name: z.string() });
export type SignInAsk = z.infer<typeof SignInAskSchema>;

/**
 * What a tool with an MCP App view returned beside its content, kept for the view
 * (docs/rules/mcp-apps.md#the-result-a-view-gets): its `structuredContent` and `_meta` as the server sent them.
 * Each is bounded (the conversation file holds it); a part over its bound is not kept, and `cut` says which and
 * why, shown in the view's place. What the model reads is the message's `content`, never this.
 */
export const ViewResultSchema = z.object({
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
  cut: z.array(z.object({ part: z.enum(['structuredContent', '_meta']), reason: z.string().max(500) })).optional(),
});
export type ViewResult = z.infer<typeof ViewResultSchema>;

export const ToolMessageSchema = z.object({
  ...base,
  role: z.literal('tool'),
  callId: z.string(),
  name: z.string(),
  content: z.array(ToolContentItemSchema),
  isError: z.boolean(),
  status: ToolCallStatusSchema,
  durationMs: z.number(),
  serverId: z.string().optional(),
  /** Its server's `maxResultChars` when it ran (docs/rules/gateway.md#result-size); absent: the default. Only what the model is sent is cut. */
  maxResultChars: z.number().int().positive().optional(),
  /** A sub-agent call: the child conversation it ran in. */
  childConversationId: z.string().optional(),
  /** The call needs the user to sign in to its server: the conversation shows a sign-in card. */
  signIn: SignInAskSchema.optional(),
  /** The tool links to an MCP App view (docs/using/mcp-apps.md): its `ui://` uri; the conversation shows the result in it. */
  view: z.string().max(2048).optional(),
  /** A call whose tool has a view: what its result held beside `content`, for the view (absent in results stored before it was kept). */
  viewResult: ViewResultSchema.optional(),
});

/**
 * Where older turns were summarized (the context window neared its end):
 * from here on, the messages up to `throughId` reach the model only as this
 * text. It is a node of the path like any message, so the conversation shows
 * where it happened.
 */
export const SummaryMessageSchema = z.object({ ...base, role: z.literal('summary'), text: z.string(), throughId: MessageIdSchema, summarized: z.number().int(), stats: AnswerStatsSchema.optional() });

export const ConversationMessageSchema = z.discriminatedUnion('role', [UserMessageSchema, AssistantMessageSchema, ToolMessageSchema, SummaryMessageSchema]);
export type ConversationMessage = z.infer<typeof ConversationMessageSchema>;
export type UserMessage = z.infer<typeof UserMessageSchema>;
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;
export type ToolMessage = z.infer<typeof ToolMessageSchema>;
export type SummaryMessage = z.infer<typeof SummaryMessageSchema>;

/** The state of a conversation as its index row keeps it. */
export const ConversationStatusSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('idle') }),
  /** A turn is running in process `pid` (another process's run shows as running while that process lives). */
  z.object({ kind: z.literal('running'), pid: z.number().int(), since: z.number() }),
  z.object({ kind: z.literal('done'), at: z.number() }),
  z.object({ kind: z.literal('stopped'), at: z.number(), stop: StopInfoSchema }),
]);
export type ConversationStatus = z.infer<typeof ConversationStatusSchema>;

export const ConversationTotalsSchema = z.object({
  answers: z.number().int(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  /** Only where the model entry gives prices. */
  cost: z.number(),
});
export type ConversationTotals = z.infer<typeof ConversationTotalsSchema>;

/** A sub-agent run: the parent conversation and the tool call it answers. */
export const ConversationParentSchema = z.object({ conversationId: ConversationIdSchema, callId: z.string(), depth: z.number().int().min(1) });

/** A conversation's row in the admin DB's `conversations` table: the index, never the messages. */
export const ConversationSchema = z.object({
  id: ConversationIdSchema,
  title: z.string().max(500),
  agentId: z.string(),
  parent: ConversationParentSchema.optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** The last message of the branch being shown and continued; null before the first. */
  leafId: MessageIdSchema.nullable(),
  status: ConversationStatusSchema,
  totals: ConversationTotalsSchema,
  /** The model entry this conversation was switched to; absent: the agent's. Each answer records the model that wrote it. */
  modelId: z.string().optional(),
  /** Its own workspace roots (docs/using/chat.md#workspace-roots); absent: its agent's. */
  roots: WorkspaceRootsSchema.optional(),
  /**
   * For an agent of kind `acp`: the ACP session its program last answered in, and the fingerprint of that program
   * (docs/using/acp.md#resuming), so the next process of the same program resumes it with `session/load`.
   */
  acpSession: z
    .object({ sessionId: z.string().min(1).max(1000), program: z.string().max(100) })
    .strict()
    .optional(),
});
export type Conversation = z.infer<typeof ConversationSchema>;

/** A conversation with the messages of its active branch, and where that branch has alternatives. */
export const ConversationDetailSchema = z.object({
  conversation: ConversationSchema,
  /** Root to leaf along the active branch. */
  messages: z.array(ConversationMessageSchema),
  /** For each message on the branch that has siblings (edits, regenerations): every sibling's id, oldest first, itself included. */
  siblings: z.record(z.string(), z.array(z.string())),
  /** Sub-agent runs started from this branch, by the tool call they answer. */
  children: z.array(z.object({ callId: z.string(), conversationId: z.string() })),
  /** What reading the file found and skipped (a torn last line after a crash). */
  notices: z.array(z.string()),
  /**
   * Where `messages` sit on the branch (a window of it): the index of its
   * first message, the index after its last, and the branch's length (a
   * message this version cannot read is skipped from `messages`, so these
   * are not their count). Absent when they are the whole branch.
   */
  window: z.object({ start: z.number().int().min(0), end: z.number().int().min(0), total: z.number().int().min(0) }).optional(),
});
export type ConversationDetail = z.infer<typeof ConversationDetailSchema>;

/**
 * Which part of the active branch to read: the newest `limit` messages, or
 * the `limit` before, after or around a message (at most one of them). A
 * conversation of any length opens and scrolls by windows.
 */
export const ConversationWindowRequestSchema = z
  .object({
    limit: z.number().int().min(1).max(500),
    around: MessageIdSchema.optional(),
    before: MessageIdSchema.optional(),
    after: MessageIdSchema.optional(),
    /** The branch, by its leaf as the face holds it (a later message below it counts too); default the conversation's own. */
    leafId: MessageIdSchema.optional(),
  })
  .refine((w) => [w.around, w.before, w.after].filter((x) => x !== undefined).length <= 1, { error: 'give at most one of around, before and after', path: ['around'] });
export type ConversationWindowRequest = z.infer<typeof ConversationWindowRequestSchema>;

export const SearchHitSchema = z.object({
  conversationId: z.string(),
  title: z.string(),
  /** Absent when the title matched. */
  messageId: z.string().optional(),
  role: z.enum(['user', 'assistant', 'title']),
  snippet: z.string(),
});
export type SearchHit = z.infer<typeof SearchHitSchema>;

export const ExportFormatSchema = z.enum(['md', 'json']);
export type ExportFormat = z.infer<typeof ExportFormatSchema>;

/** "Always allow": a confirm-level tool this agent may run without asking, until revoked. */
export const AlwaysAllowEntrySchema = z.object({ agentId: z.string(), toolName: z.string(), serverId: z.string(), createdAt: z.number() });
export type AlwaysAllowEntry = z.infer<typeof AlwaysAllowEntrySchema>;

/** A tool call as the faces follow it: started, then finished with how it ended. */
export const ToolCallEventSchema = z.object({
  conversationId: z.string(),
  /** The assistant message that asked for it. */
  messageId: z.string(),
  callId: z.string(),
  name: z.string(),
  argumentsText: z.string(),
  /**
   * `awaiting`: the call waits for the user's approval (`confirmation` says
   * which question and until when); `started` again once approved, when it
   * runs (its duration counts from then); `progress`: the server reported
   * how far it is (MCP progress notifications), while the call runs.
   */
  phase: z.enum(['started', 'awaiting', 'progress', 'finished']),
  /** For `awaiting`: the confirmation request that asks, and when it is declined unanswered (host clock, ms). */
  confirmation: z.object({ id: z.string(), expiresAt: z.number(), createdAt: z.number() }).optional(),
  /** The latest progress the server reported (phase `progress`, and kept by a face until the call finishes). */
  progress: z.object({ progress: z.number(), total: z.number().optional(), message: z.string().optional() }).optional(),
  status: ToolCallStatusSchema.optional(),
  durationMs: z.number().optional(),
  /** The first lines of its text result. */
  summary: z.string().optional(),
  /** Images it returned, as urls the face can load. */
  artifacts: z.array(z.object({ url: z.string(), mimeType: z.string() })).optional(),
  /** A sub-agent call: where its run is (known from the start). */
  childConversationId: z.string().optional(),
  signIn: SignInAskSchema.optional(),
});
export type ToolCallEvent = z.infer<typeof ToolCallEventSchema>;

export const ChatStatusEventSchema = z.object({
  conversationId: z.string(),
  status: z.enum(['running', 'stopped', 'done']),
  /** For `stopped`. */
  stop: StopInfoSchema.optional(),
  /** A failed request will be retried after `delayMs`; deltas of `discardedMessageId` are void. */
  retry: z.object({ attempt: z.number().int(), maxAttempts: z.number().int(), delayMs: z.number(), error: ProviderFailureSchema, discardedMessageId: z.string() }).optional(),
  totals: ConversationTotalsSchema.optional(),
});
export type ChatStatusEvent = z.infer<typeof ChatStatusEventSchema>;
