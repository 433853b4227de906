import type { AuditDraft, AuditLog } from '../audit/auditLog.js';
import type { ToolConfirmationService } from '../confirmation/toolConfirmationService.js';
import type { RiskLevel } from '../../shared/confirmation.js';
import type { CallContext, GatewayHooks } from './toolGateway.js';

/**
 * Whether a call of this tool asks the user first: its permission level is
 * `confirm` (declared, overridden, or a sub-agent's level), or a server
 * registered it as asking, for all its calls or for these arguments (a
 * write tool given more than its low-risk arguments), whatever its level
 * says. Decided here alone, at the call.
 */
function asksConfirmation(context: CallContext, confirmations: Pick<ToolConfirmationService, 'needsConfirmation'>): boolean {
  const { tool, args, caller } = context;
  return tool.permission === 'confirm' || confirmations.needsConfirmation(tool.name, args, caller.agentId);
}

/** How risky a confirm-level tool is, when no one registered it with a risk: destructive tools are high. */
function riskOf(context: CallContext, confirmations: ToolConfirmationService): RiskLevel {
  if (confirmations.needsConfirmation(context.tool.name, context.args, context.caller.agentId)) return confirmations.getRiskLevel(context.tool.name);
  return context.tool.annotations?.destructiveHint === true ? 'high' : 'medium';
}

/**
 * The host's gateway hooks (docs/rules/confirmation.md#confirmation): a tool whose permission is
 * `confirm` (or that a server registered as confirmable, for all its calls
 * or for these arguments) waits for the user;
 * every call is written to the audit log, and so is every call the gateway
 * refused before anyone was asked (decision and outcome `refused`, the
 * refusal's code as `reason`). Wired in the gateway, so no face
 * (CLI, UI, HTTP, a plugin page) can go around them.
 */
export function gatewayHooks(confirmations: ToolConfirmationService, audit: AuditLog): GatewayHooks {
  return {
    beforeCall(context, signal, asked, callId) {
      const { caller, tool, args } = context;
      // Answered at once, not as a promise: this is every call's path. The one place a call is judged to need asking.
      if (!asksConfirmation(context, confirmations)) return 'auto';
      return confirmations.requestDecision(tool.serverId, tool.name, args, {
        conversationId: caller.conversationId,
        risk: riskOf(context, confirmations),
        ...(caller.agentId !== undefined ? { agentId: caller.agentId } : {}),
        ...(caller.confirmationGroup !== undefined ? { groupId: caller.confirmationGroup } : {}),
        ...(tool.description ? { description: tool.description } : {}),
        ...(signal ? { signal } : {}),
        ...(asked ? { onAsked: asked } : {}),
        ...(callId !== undefined ? { callId } : {}),
      });
    },
    afterCall(record) {
      // Fixed-shape literals, no spreads: this runs on every call (see callRecord in toolGateway.ts).
      const draft: AuditDraft = {
        at: record.endedAt,
        agentId: record.caller.agentId,
        conversationId: record.caller.conversationId,
        appId: record.caller.appId,
        flow: record.caller.flow,
        serverId: record.audit?.serverId ?? record.tool.serverId,
        tool: record.tool.name,
        permission: record.tool.permission,
        decision: record.decision,
        durationMs: record.durationMs,
        outcome: record.audit?.outcome ?? record.outcome,
        reason: record.audit?.reason,
        error: record.error,
        // Kept as they are: turned into text when the line is written, off the call's path.
        callArgs: record.args,
        callResult: record.result,
      };
      audit.append(draft);
    },
    afterRefusal(record) {
      audit.append({
        at: record.endedAt,
        agentId: record.caller.agentId,
        conversationId: record.caller.conversationId,
        appId: record.caller.appId,
        flow: record.caller.flow,
        serverId: record.serverId ?? null,
        tool: record.toolName,
        permission: null,
        decision: 'refused',
        durationMs: record.durationMs,
        outcome: 'refused',
        reason: record.code,
        error: record.message,
      });
    },
  };
}
