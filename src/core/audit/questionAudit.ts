import type { AuditDecision, AuditOutcome } from '../../shared/audit.js';
import type { QuestionOutcome } from '../../shared/question.js';
import { HOST_APP_ID } from '../dataHome.js';
import type { AuditDraft } from './auditLine.js';

/**
 * What the audit keeps of a question a server put to the person, or a request it was refused
 * (docs/rules/questions.md#the-audit): names and sizes, never a value the user typed nor a text sampled.
 */
export interface QuestionAuditEvent {
  at: number;
  /** The server's request: elicitation/create, sampling/createMessage (the policy refuses other requests alike). */
  method: string;
  serverId: string;
  /** Who was calling the server (its first caller in flight), when it was calling. */
  caller?: { appId: string; agentId?: string; conversationId: string; flow: 'main' | 'sub' };
  /** `asked`, how it ended, `completed` (the server said a url question answered earlier is done), or `refused` with the refusal's code and reason. */
  step: { kind: 'asked' } | { kind: 'ended'; outcome: QuestionOutcome } | { kind: 'completed' } | { kind: 'refused'; code: string; reason: string };
  /** The kind's own summary of what was asked (a form's field names, a url's domain; a sampling request's model and sizes). */
  what?: Record<string, unknown>;
  /** Why it failed (a model's words), beside a refusal's reason. */
  error?: string;
  durationMs?: number;
}

const APPROVED = { decision: 'approved', outcome: 'ok' } as const;
const CANCELLED = { decision: 'declined', outcome: 'cancelled' } as const;
const DECLINED = { decision: 'declined', outcome: 'declined' } as const;
const ENDED: Record<QuestionOutcome, { decision: AuditDecision; outcome: AuditOutcome }> = {
  approved: APPROVED,
  accept: APPROVED,
  completed: APPROVED,
  sent: APPROVED,
  decline: DECLINED,
  declined: DECLINED,
  cancel: CANCELLED,
  expired: { decision: 'expired', outcome: 'cancelled' },
  withdrawn: { decision: 'withdrawn', outcome: 'cancelled' },
  failed: { decision: 'approved', outcome: 'failed' },
};

/**
 * A question as an audit record, under the app that was calling the server
 * (the host's own when none was) and the server's method as its tool:
 * `args` holds the kind's summary; `reason` says asked, how it ended, or
 * the refusal's code.
 */
export function questionDraft(event: QuestionAuditEvent): AuditDraft {
  const { caller, step } = event;
  const ended = step.kind === 'ended' ? ENDED[step.outcome] : step.kind === 'completed' ? ENDED.completed : undefined;
  const refused = step.kind === 'refused';
  const error = refused ? step.reason : event.error;
  return {
    at: event.at,
    agentId: caller?.agentId,
    conversationId: caller?.conversationId ?? null,
    appId: caller?.appId ?? HOST_APP_ID,
    flow: caller?.flow ?? null,
    serverId: event.serverId,
    tool: event.method,
    permission: null,
    decision: refused ? 'refused' : (ended?.decision ?? null),
    durationMs: event.durationMs ?? 0,
    outcome: refused ? 'refused' : (ended?.outcome ?? null),
    reason: refused ? step.code : step.kind === 'ended' ? step.outcome : step.kind,
    ...(error ? { error } : {}),
    ...(event.what ? { callArgs: event.what } : {}),
  };
}
