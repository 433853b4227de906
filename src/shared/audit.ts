import { z } from 'zod';
import { AUDIT_DECISIONS, AUDIT_OUTCOMES } from './auditValues.js';
import { PermissionLevelSchema } from './mcp.js';

export const AuditFlowSchema = z.enum(['main', 'sub']);
export const AuditDecisionSchema = z.enum(AUDIT_DECISIONS);
export const AuditOutcomeSchema = z.enum(AUDIT_OUTCOMES);
export type AuditDecision = z.infer<typeof AuditDecisionSchema>;
export type AuditOutcome = z.infer<typeof AuditOutcomeSchema>;

/**
 * One gateway call, as the audit keeps it (docs/rules/gateway.md#audit: every call leaves a
 * record), refused ones included, and every lease released. A field is `null` when the host could not tell it (a value that
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
  /** The plugin whose backend process the host stopped (such a record has no server and no tool). */
  pluginId: z.string().optional(),
  /** Why it was refused (the refusal's code, e.g. NOT_GRANTED) or why a lease was released or a backend stopped (mcp_release, idle, conversation-ended, holder-gone, not-runnable). */
  reason: z.string().optional(),
  /** How many refusals this record stands for: a server's requests refused for one reason are written once a minute with their count (absent: one). */
  count: z.number().int().positive().optional(),
  error: z.string().optional(),
  /** The call's arguments as JSON text (cut at AUDIT_TEXT_MAX characters, ending in "…"), for the History page. */
  args: z.string().optional(),
  /** The text the tool answered (its text items; other items named by type), cut like `args`. */
  result: z.string().optional(),
});

/** How much of a call's arguments and result the audit keeps: enough to read, bounded so the log stays small. */
export const AUDIT_TEXT_MAX = 2000;
export type AuditRecord = z.infer<typeof AuditRecordSchema>;
