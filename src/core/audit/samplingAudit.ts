import type { AuditDecision, AuditOutcome } from '../../shared/audit.js';
import type { SamplingOutcome } from '../../shared/sampling.js';
import { HOST_APP_ID } from '../dataHome.js';
import type { AuditDraft } from './auditLine.js';

/** What the audit keeps of a server's sampling request (docs/rules/sampling.md#the-audit): sizes and names, never the text. */
export interface SamplingAuditEvent {
  at: number;
  serverId: string;
  /** Who was calling the server (its first caller in flight). */
  caller?: { appId: string; agentId?: string; conversationId: string; flow: 'main' | 'sub' };
  step: { kind: 'asked' } | { kind: 'ended'; outcome: SamplingOutcome } | { kind: 'refused'; code: string; reason: string };
  /** What was asked, once checked: the model entry, how many messages and characters, the tools' names, the tokens allowed. */
  request?: { modelId: string; messages: number; chars: number; tools: string[]; maxTokens: number; edited?: boolean; remembered?: boolean };
  /** What the model answered: its name, stop reason and token counts. */
  answer?: { model: string; stopReason: string; inputTokens?: number; outputTokens?: number };
  /** Why a run failed (the provider's words). */
  error?: string;
  durationMs?: number;
}

const ENDED: Record<SamplingOutcome, { decision: AuditDecision; outcome: AuditOutcome }> = {
  sent: { decision: 'approved', outcome: 'ok' },
  declined: { decision: 'declined', outcome: 'declined' },
  expired: { decision: 'expired', outcome: 'cancelled' },
  withdrawn: { decision: 'withdrawn', outcome: 'cancelled' },
  failed: { decision: 'approved', outcome: 'failed' },
};

/**
 * A sampling request as an audit record, under the app that was calling the
 * server (the host's own when none was), its tool `sampling/createMessage`:
 * `args` holds the model, the sizes, the tools' names and the token counts;
 * `reason` says asked, how it ended, or the refusal's code.
 */
export function samplingDraft(event: SamplingAuditEvent): AuditDraft {
  const { caller, step } = event;
  const ended = step.kind === 'ended' ? ENDED[step.outcome] : undefined;
  const what = event.request || event.answer ? { ...event.request, ...(event.answer ? { answer: event.answer } : {}) } : undefined;
  const error = step.kind === 'refused' ? step.reason : event.error;
  return {
    at: event.at,
    agentId: caller?.agentId,
    conversationId: caller?.conversationId ?? null,
    appId: caller?.appId ?? HOST_APP_ID,
    flow: caller?.flow ?? null,
    serverId: event.serverId,
    tool: 'sampling/createMessage',
    permission: null,
    decision: step.kind === 'refused' ? 'refused' : (ended?.decision ?? null),
    durationMs: event.durationMs ?? 0,
    outcome: step.kind === 'refused' ? 'refused' : (ended?.outcome ?? null),
    reason: step.kind === 'refused' ? step.code : step.kind === 'ended' ? step.outcome : 'asked',
    ...(error ? { error } : {}),
    ...(what ? { callArgs: what } : {}),
  };
}
