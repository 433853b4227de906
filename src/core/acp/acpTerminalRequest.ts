import { randomUUID } from 'node:crypto';
import type { CreateTerminalRequest, CreateTerminalResponse } from '@agentclientprotocol/sdk';
import type { Agent } from '../../shared/agents.js';
import type { AuditDraft } from '../audit/auditLog.js';
import type { ToolConfirmationService } from '../confirmation/toolConfirmationService.js';
import type { Scheduler } from '../ports.js';
import type { Caller } from '../tools/toolGateway.js';
import { AcpFileRefusal } from './acpFiles.js';
import { checkTerminalRequest, type AcpTerminals, type TerminalCommand } from './acpTerminals.js';
import type { AcpTranscript, TranscriptSink } from './acpTranscript.js';

/** The question's tool name for a terminal command: "always for this agent" covers its commands, and only them. */
const TERMINAL_TOOL = 'acp_terminal';

export interface TerminalRequestDeps {
  confirmations: Pick<ToolConfirmationService, 'requestDecision'>;
  roots(conversationId: string): readonly string[];
  audit?: (draft: AuditDraft) => void;
  scheduler: Scheduler;
}

/** The turn a terminal request comes in: whose, where its card goes, and its Stop. */
export interface TerminalTurn {
  input: { agent: Agent; conversationId: string; caller: Caller; sink: TranscriptSink };
  transcript: AcpTranscript;
  signal: AbortSignal;
}

/**
 * `terminal/create` (docs/using/acp.md#terminals): checked first (the cwd
 * inside the roots, no variable that decides which code runs), then asked
 * on the host's confirmation card with the exact command, arguments, cwd
 * and variables, as a tool call of the turn; run only if approved. Every
 * request is in the audit, refused, declined or run (with how it ended).
 */
export async function createTerminal(
  deps: TerminalRequestDeps,
  terminals: AcpTerminals,
  turn: TerminalTurn,
  params: CreateTerminalRequest,
  requestSignal: AbortSignal,
): Promise<CreateTerminalResponse> {
  const { input, transcript } = turn;
  const askedAt = deps.scheduler.now();
  const audit = (draft: Pick<AuditDraft, 'decision' | 'outcome'> & Partial<AuditDraft>) =>
    deps.audit?.({
      at: askedAt,
      agentId: input.agent.id,
      conversationId: input.conversationId,
      appId: input.caller.appId,
      flow: input.caller.flow,
      serverId: null,
      tool: TERMINAL_TOOL,
      permission: 'write',
      durationMs: deps.scheduler.now() - askedAt,
      callArgs: { command: params.command, args: params.args ?? [], cwd: params.cwd ?? null, env: (params.env ?? []).map((v) => v.name) },
      ...draft,
    });
  let command: TerminalCommand;
  try {
    command = checkTerminalRequest(params, deps.roots(input.conversationId));
  } catch (error) {
    audit({ decision: 'refused', outcome: 'refused', reason: (error as Error).message });
    throw error;
  }
  const shown = { command: command.command, args: command.args, cwd: command.cwd, env: command.env };
  const callId = `terminal-${randomUUID()}`;
  const title = `Run ${[command.command, ...command.args].map((part) => JSON.stringify(part)).join(' ')} in ${command.cwd}`;
  const step = (status: 'pending' | 'in_progress' | 'completed' | 'failed', text?: string) =>
    transcript.update({
      sessionUpdate: status === 'pending' ? 'tool_call' : 'tool_call_update',
      toolCallId: callId,
      title,
      kind: 'execute',
      status,
      rawInput: shown,
      ...(text !== undefined ? { content: [{ type: 'content', content: { type: 'text', text } }] } : {}),
    });
  step('pending');
  const signal = AbortSignal.any([turn.signal, requestSignal]);
  const decision = await deps.confirmations.requestDecision(`ACP agent ${input.agent.name}`, TERMINAL_TOOL, shown, {
    conversationId: input.conversationId,
    agentId: input.agent.id,
    callId,
    description: title,
    signal,
    risk: 'high',
    onAsked: (request) => transcript.awaiting(callId, title, shown, request),
  });
  if (decision !== 'approved' || signal.aborted) {
    const why = decision === 'approved' ? 'the turn was stopped' : `the user did not allow it (${decision})`;
    audit({ decision: decision === 'approved' ? 'withdrawn' : decision, outcome: 'declined' });
    step('failed', `not run: ${why}`);
    throw new AcpFileRefusal(`the command was not run: ${why}`);
  }
  let created: Awaited<ReturnType<AcpTerminals['create']>>;
  try {
    created = await terminals.create(command);
  } catch (error) {
    audit({ decision: 'approved', outcome: 'failed', error: (error as Error).message });
    step('failed', (error as Error).message);
    throw error;
  }
  // Stopped while it started: it goes the way the turn's other commands went.
  if (signal.aborted) void terminals.kill(created.terminalId).catch(() => undefined);
  step('in_progress');
  void created.exited.then(({ exitStatus, killed }) => {
    const how = exitStatus.signal ? `killed by ${exitStatus.signal}` : `exit code ${exitStatus.exitCode}`;
    audit({ decision: 'approved', outcome: killed ? 'cancelled' : exitStatus.exitCode === 0 ? 'ok' : 'tool-error', callResult: { content: [{ type: 'text', text: how }] } });
    step(exitStatus.exitCode === 0 ? 'completed' : 'failed', how);
  });
  return { terminalId: created.terminalId };
}
