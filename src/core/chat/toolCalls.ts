import type { SignInAsk, ToolCallStatus, ToolContentItem, ToolMessage } from '../../shared/chat.js';
import { HOST_APP_ID } from '../dataHome.js';
import { McpRuntimeError } from '../mcp/mcpRuntimeError.js';
import { GatewayError, type Caller, type GatewayCallResult, type ToolGateway } from '../mcp/gateway/toolGateway.js';
import { callProgress, type RunningCalls } from '../mcp/gateway/runningCalls.js';
import type { ArtifactFile, ChatEvent } from './chatPolicy.js';
import type { StreamedCall } from './streamedAnswer.js';
import { resultSummary, storedContent, textItem } from './toolResults.js';
import type { TurnSetup } from './turnSetup.js';

/** A tool message before it has its place in the conversation (id, parent, time). */
export type ToolResultDraft = Omit<ToolMessage, 'id' | 'parentId' | 'at'>;

export interface SubAgentRun {
  text: string;
  isError: boolean;
  status: ToolCallStatus;
}

export interface ToolCallDeps {
  gateway: Pick<ToolGateway, 'callTool'>;
  /** Whether this call asks the user whatever its level (a registered tool; for some, only with these arguments). */
  needsConfirmation(toolName: string, args: Record<string, unknown>): boolean;
  emit(event: ChatEvent): void;
  /** Runs a sub-agent in a child conversation it creates; `started` names the child as soon as it exists. */
  runSubAgent(input: { parentConversationId: string; callId: string; agentId: string; task: string; signal: AbortSignal; depth: number; started(childId: string): void }): Promise<SubAgentRun>;
  /** Where each tool call is registered while it runs, so a person can cancel that one call (not the whole turn). */
  calls?: RunningCalls;
}

/** The key a chat tool call is cancelled by. */
export const chatCallKey = (conversationId: string, callId: string) => `chat\u0000${conversationId}\u0000${callId}`;

export interface CallBatch {
  conversationId: string;
  /** The assistant message that asked for the calls. */
  messageId: string;
  calls: readonly StreamedCall[];
  setup: TurnSetup;
  /** The conversation's own artifacts folder and its folder (stored paths are relative to it). */
  artifactsDir: string;
  folder: string;
  signal: AbortSignal;
  depth: number;
}

/** Resolves when `signal` aborts: a call still waiting then (on a confirmation, on a server) ends as cancelled at once. */
const abortedPromise = (signal: AbortSignal) => new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));

/**
 * Every tool call of one model message, run through the gateway at the same
 * time (each asking for confirmation as its level says), their results in
 * the order of the calls. Calls that need confirmation share a group id when
 * there are several, so a face asks once for all of them.
 */
export async function runToolCalls(deps: ToolCallDeps, batch: CallBatch): Promise<ToolResultDraft[]> {
  const { setup, calls } = batch;
  const confirming = calls.filter((c) => c.type === 'tool-call' && (setup.permissions.get(c.name) === 'confirm' || deps.needsConfirmation(c.name, c.args))).length;
  const caller: Caller = confirming >= 2 ? { ...setup.caller, confirmationGroup: batch.messageId } : setup.caller;
  return Promise.all(calls.map((call) => runOne(deps, batch, caller, call)));
}

async function runOne(deps: ToolCallDeps, batch: CallBatch, caller: Caller, call: StreamedCall): Promise<ToolResultDraft> {
  // Its run time: from now, or from the user's approval when it waits for one (the user's thinking is not the tool's time).
  let started = performance.now();
  /** Asked and not (yet) approved: a call that ends so never ran, and has no run time. */
  let waiting = false;
  let childConversationId: string | undefined;
  const base = { conversationId: batch.conversationId, messageId: batch.messageId, callId: call.id, name: call.name, argumentsText: call.argumentsText };
  deps.emit({ type: 'toolCall', call: { ...base, phase: 'started' } });
  const finish = (status: ToolCallStatus, content: ToolContentItem[], extra: { serverId?: string; artifacts?: ArtifactFile[]; signIn?: SignInAsk } = {}): ToolResultDraft => {
    const durationMs = waiting ? 0 : Math.round(performance.now() - started);
    const signIn = extra.signIn ? { signIn: extra.signIn } : {};
    deps.emit({
      type: 'toolCall',
      call: {
        ...base,
        phase: 'finished',
        status,
        durationMs,
        summary: resultSummary(content),
        ...(extra.artifacts?.length ? { artifacts: extra.artifacts } : {}),
        ...(childConversationId ? { childConversationId } : {}),
        ...signIn,
      },
    });
    return {
      role: 'tool',
      callId: call.id,
      name: call.name,
      content,
      isError: status !== 'ok',
      status,
      durationMs,
      ...(extra.serverId ? { serverId: extra.serverId } : {}),
      ...(childConversationId ? { childConversationId } : {}),
      ...signIn,
    };
  };

  if (call.type === 'tool-call-malformed') {
    return finish('error', textItem(`${call.message}: ${JSON.stringify(call.argumentsText.slice(0, 500))}. Call ${call.name} again with its arguments as one JSON object.`));
  }
  if (batch.signal.aborted) return finish('cancelled', textItem('Not run: the user stopped the conversation.'));

  // This call's own signal: a Stop of the turn aborts it, and so does a Cancel of this call alone.
  const begin = () => deps.calls?.begin(chatCallKey(batch.conversationId, call.id), batch.signal) ?? { signal: batch.signal, end: () => undefined };
  const subAgentId = batch.setup.subAgents.get(call.name);
  if (subAgentId !== undefined) {
    const task = call.args.task;
    if (typeof task !== 'string' || !task.trim()) return finish('error', textItem(`${call.name} needs {"task": "<what to do>"}`));
    // Cancelled alone (its card's Cancel), the sub-agent's run stops as a Stop would stop it; the turn goes on.
    const running = begin();
    try {
      const run = await deps.runSubAgent({
        parentConversationId: batch.conversationId,
        callId: call.id,
        agentId: subAgentId,
        task,
        signal: running.signal,
        depth: batch.depth + 1,
        started: (childId) => {
          childConversationId = childId;
          deps.emit({ type: 'toolCall', call: { ...base, phase: 'started', childConversationId: childId } });
        },
      });
      return finish(run.status, textItem(run.text));
    } finally {
      running.end();
    }
  }

  const running = begin();
  const cancelled = () =>
    finish('cancelled', textItem(batch.signal.aborted ? 'Cancelled: the user stopped the conversation while this call ran.' : 'Cancelled: the user cancelled this call while it ran.'));
  const onProgress = (progress: Parameters<typeof callProgress>[0]) => deps.emit({ type: 'toolCall', call: { ...base, phase: 'progress', progress: callProgress(progress) } });
  const onAsked = (request: { id: string; expiresAt: number; createdAt: number }) => {
    waiting = true;
    deps.emit({ type: 'toolCall', call: { ...base, phase: 'awaiting', confirmation: { id: request.id, expiresAt: request.expiresAt, createdAt: request.createdAt } } });
  };
  const onApproved = () => {
    if (!waiting) return;
    waiting = false;
    started = performance.now();
    deps.emit({ type: 'toolCall', call: { ...base, phase: 'started' } });
  };
  try {
    const calling = deps.gateway.callTool(caller, call.name, call.args, { signal: running.signal, onProgress, onAsked, onApproved, artifactsDir: batch.artifactsDir });
    // Whatever the call does after a Stop or Cancel is not waited for; its failure then is expected and dropped.
    calling.catch(() => undefined);
    const result: GatewayCallResult | undefined = await Promise.race([calling, abortedPromise(running.signal).then(() => undefined)]);
    if (!result) return cancelled();
    const serverId = result.tool.serverId;
    const artifacts = result.artifacts.map((a) => ({ file: a.path, mimeType: a.mimeType }));
    const content = [...storedContent(result.result, batch.folder), ...result.reminders.map((text) => ({ type: 'reminder' as const, text }))];
    const status: ToolCallStatus =
      result.decision === 'withdrawn' ? 'cancelled' : result.decision === 'declined' || result.decision === 'expired' ? 'declined' : result.result.isError ? 'error' : 'ok';
    return finish(status, content, { serverId, artifacts });
  } catch (error) {
    if (running.signal.aborted) return cancelled();
    if (error instanceof GatewayError) return finish('refused', textItem(`Refused: ${error.message}`));
    if (error instanceof McpRuntimeError) return finish('error', textItem(`The call failed: ${error.message}`), { ...(error.serverId ? { serverId: error.serverId } : {}), ...signInAsk(error) });
    return finish('error', textItem(`The call failed: ${(error as Error).message}`));
  } finally {
    running.end();
  }
}

/**
 * A call that needs the user to sign in to its server: the conversation
 * shows a sign-in card (the server's name, a Sign in button) instead of the
 * raw refusal. Only mcp.yaml servers (`chatos::<name>`) sign in by name.
 */
function signInAsk(error: McpRuntimeError): { signIn?: SignInAsk } {
  const name = error.serverId?.startsWith(`${HOST_APP_ID}::`) ? error.serverId.slice(HOST_APP_ID.length + 2) : undefined;
  return error.code === 'SIGN_IN_NEEDED' && name ? { signIn: { serverId: error.serverId!, name } } : {};
}
