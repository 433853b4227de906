import { z } from 'zod';

/**
 * Agent memory (docs/using/agents.md#memory): short notes an agent keeps
 * across conversations, in its own file under the data home. These are the
 * contract's shapes; the store is src/core/memory.
 */

/** One memory at most this long: a fact or a preference, not a document (a knowledge base holds those). */
export const MAX_MEMORY_CHARS = 4000;
/** A memory space holds at most this many: a full one asks to forget some first. */
export const MAX_MEMORIES = 1000;
/** A recall's query, at most: a sentence or two. */
export const MAX_MEMORY_QUERY_CHARS = 1000;

export const MemoryIdSchema = z.string().regex(/^m_[0-9a-f]{16}$/, { error: 'is not a memory id (m_ and 16 hex digits)' });

export const MemorySchema = z
  .object({
    id: MemoryIdSchema,
    text: z.string().min(1).max(MAX_MEMORY_CHARS),
    /** ISO times. */
    createdAt: z.string(),
    updatedAt: z.string(),
    /** Who wrote it: an agent id, or `user` for the Memory tab and the CLI. */
    by: z.string().max(64),
    /** Who last changed it after it was saved (same kinds as `by`; its time is `updatedAt`); absent while it is as first saved. */
    changedBy: z.string().max(64).optional(),
  })
  .strict();
export type Memory = z.infer<typeof MemorySchema>;

/** A memory as a listing or a search shows it: with its score when a query found it. */
export const MemoryHitSchema = MemorySchema.extend({ score: z.number().optional() });
export type MemoryHit = z.infer<typeof MemoryHitSchema>;

/**
 * An agent's memory switch. Off by default: an agent is offered the memory
 * tools only when `enabled`. `shared`: its memories are those of every
 * agent acting for the same host app with `shared` on (the space
 * `app:<hostAppId>`), rather than its own (`agent:<id>`).
 */
export const AgentMemorySettingsSchema = z
  .object({
    enabled: z.boolean().default(false),
    shared: z.boolean().default(false),
  })
  .strict();

/** An agent's memories as the Memory tab, the settings server and the CLI see them. */
export const AgentMemoryListingSchema = z.object({
  agentId: z.string(),
  enabled: z.boolean(),
  shared: z.boolean(),
  /** `agent:<id>` or `app:<hostAppId>`. */
  space: z.string(),
  /** How many the space holds (a search returns fewer). */
  total: z.number(),
  memories: z.array(MemoryHitSchema),
  /** With a query: how it was searched, by meaning (the embedding model set in Settings) or by words. */
  searchedBy: z.enum(['meaning', 'words']).optional(),
  /** Why a search by meaning fell back to words (the model cannot embed, or failed). */
  note: z.string().optional(),
  /** The longest memory the host keeps (MAX_MEMORY_CHARS): the window refuses a longer one before sending it. */
  maxChars: z.number(),
});
export type AgentMemoryListing = z.infer<typeof AgentMemoryListingSchema>;
