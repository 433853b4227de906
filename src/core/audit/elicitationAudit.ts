import type { ElicitationOutcome } from '../../shared/elicitation.js';
import type { AuditDecision, AuditOutcome } from '../../shared/audit.js';
import { HOST_APP_ID } from '../dataHome.js';
import type { AuditDraft } from './auditLine.js';

/** What the audit keeps of a question a server put (docs/using/elicitation.md#the-audit): never a value the user typed. */
export interface ElicitationAuditEvent {
  at: number;
  /** The request's method; default elicitation/create (the policy refuses other server requests alike). */
  method?: string;
  serverId: string;
  /** Who was calling the server (its first caller in flight), when it was calling. */
  caller?: { appId: string; agentId?: string; conversationId: string; flow: 'main' | 'sub' };
  /** `asked`, how it ended, `completed` (the server said a url question answered earlier is done), or `refused` with the refusal's code and reason. */
  step: { kind: 'asked' } | { kind: 'ended'; outcome: ElicitationOutcome } | { kind: 'completed' } | { kind: 'refused'; code: string; reason: string };
  /** The form's field names or the url's domain, when the request got that far. */
  mode?: 'form' | 'url';
  fields?: readonly string[];
  domain?: string;
  durationMs?: number;
}

const ENDED: Record<ElicitationOutcome, { decision: AuditDecision; outcome: AuditOutcome }> = {
  accept: { decision: 'approved', outcome: 'ok' },
  decline: { decision: 'declined', outcome: 'declined' },
  cancel: { decision: 'declined', outcome: 'cancelled' },
  expired: { decision: 'expired', outcome: 'cancelled' },
  withdrawn: { decision: 'withdrawn', outcome: 'cancelled' },
  completed: { decision: 'approved', outcome: 'ok' },
};

/**
 * A server's question as an audit record, under the app that was calling it
 * (the host's own when none was) and the method as its tool: `args` holds
 * the mode with the field names or the domain; `reason` says asked, how it
 * ended (accept, decline, cancel, expired, withdrawn, completed) or the refusal's code.
 */
export function elicitationDraft(event: ElicitationAuditEvent): AuditDraft {
  const { caller, step } = event;
  const ended = step.kind === 'ended' ? ENDED[step.outcome] : step.kind === 'completed' ? ENDED.completed : undefined;
  const what = event.mode === undefined ? undefined : { mode: event.mode, ...(event.fields ? { fields: event.fields } : {}), ...(event.domain ? { domain: event.domain } : {}) };
  return {
    at: event.at,
    agentId: caller?.agentId,
    conversationId: caller?.conversationId ?? null,
    appId: caller?.appId ?? HOST_APP_ID,
    flow: caller?.flow ?? null,
    serverId: event.serverId,
    tool: event.method ?? 'elicitation/create',
    permission: null,
    decision: step.kind === 'refused' ? 'refused' : (ended?.decision ?? null),
    durationMs: event.durationMs ?? 0,
    outcome: step.kind === 'refused' ? 'refused' : (ended?.outcome ?? null),
    reason: step.kind === 'refused' ? step.code : step.kind === 'ended' ? step.outcome : step.kind,
    ...(step.kind === 'refused' ? { error: step.reason } : {}),
    ...(what ? { callArgs: what } : {}),
  };
}
