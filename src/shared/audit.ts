import { z } from 'zod';
import { PermissionLevelSchema } from './mcp.js';

export const AuditFlowSchema = z.enum(['main', 'sub']);
export const AuditDecisionSchema = z.enum(['auto', 'approved', 'declined', 'expired']);
export const AuditOutcomeSchema = z.enum(['ok', 'tool-error', 'failed', 'declined']);

/**
 * One gateway call, as the audit keeps it (seed 003: every call leaves a
 * record). A field is `null` when the host could not tell it (a value that
 * was missing or not of its type, a defect upstream): the call is still
 * recorded, and nothing unparseable is ever written.
 */
export const AuditRecordSchema = z.object({
  time: z.string().nullable(),
  agentId: z.string().optional(),
  conversationId: z.string().nullable(),
  appId: z.string().nullable(),
  flow: AuditFlowSchema.nullable(),
  serverId: z.string().nullable(),
  tool: z.string().nullable(),
  permission: PermissionLevelSchema.nullable(),
  decision: AuditDecisionSchema.nullable(),
  durationMs: z.number().nullable(),
  outcome: AuditOutcomeSchema.nullable(),
  error: z.string().optional(),
});
export type AuditRecord = z.infer<typeof AuditRecordSchema>;
