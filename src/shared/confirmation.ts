import { z } from 'zod';

export const RiskLevelSchema = z.enum(['low', 'medium', 'high']);
export type RiskLevel = z.infer<typeof RiskLevelSchema>;

/** A pending question to the user: may this tool run with these arguments? (docs/rules/confirmation.md#confirmation) */
export const ToolConfirmationRequestSchema = z.object({
  id: z.string(),
  serverName: z.string(),
  toolName: z.string(),
  args: z.record(z.string(), z.unknown()),
  /** One sentence a person can judge, e.g. 'Delete agent "writer"'. */
  summary: z.string(),
  /** True when the summary was written for this tool (a registered summary); else it is the generic "Run … with {json}" and a face says it its own way. */
  customSummary: z.boolean().optional(),
  /** The tool's own description, so a person knows what it does before saying yes. */
  description: z.string().optional(),
  risk: RiskLevelSchema,
  conversationId: z.string().optional(),
  /** The agent asking (an agent's call): "always allow" is remembered for this agent and tool. */
  agentId: z.string().optional(),
  /**
   * Calls a model asked for in one message: every confirmation they need
   * carries the same id, so a face shows them as one card (approve or
   * decline each, or all). Absent for a call asked on its own.
   */
  groupId: z.string().optional(),
  createdAt: z.number(),
  expiresAt: z.number(),
});
export type ToolConfirmationRequest = z.infer<typeof ToolConfirmationRequestSchema>;

/** `withdrawn`: the call was cancelled (Stop, or its own Cancel) while it waited for an answer; nobody answered it. */
export const ConfirmationDecisionSchema = z.enum(['approved', 'declined', 'expired', 'withdrawn']);
export type ConfirmationDecision = z.infer<typeof ConfirmationDecisionSchema>;

/**
 * `once`: this call; `conversation`: this tool for the rest of this
 * conversation; `always`: this tool for this agent from now on, until
 * revoked (kept in the admin DB; for a request without an agent, the same
 * as `conversation`).
 */
export const ApprovalScopeSchema = z.enum(['once', 'conversation', 'always']);
export type ApprovalScope = z.infer<typeof ApprovalScopeSchema>;
