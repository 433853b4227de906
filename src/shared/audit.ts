import { z } from 'zod';
import { PermissionLevelSchema } from './mcp.js';

/** One gateway call, as the audit keeps it (seed 003: every call leaves a record). */
export const AuditRecordSchema = z.object({
  time: z.string(),
  agentId: z.string().optional(),
  conversationId: z.string(),
  appId: z.string(),
  flow: z.enum(['main', 'sub']),
  serverId: z.string(),
  tool: z.string(),
  permission: PermissionLevelSchema,
  decision: z.enum(['auto', 'approved', 'declined', 'expired']),
  durationMs: z.number(),
  outcome: z.enum(['ok', 'tool-error', 'failed', 'declined']),
  error: z.string().optional(),
});
export type AuditRecord = z.infer<typeof AuditRecordSchema>;
