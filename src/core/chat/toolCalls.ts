import type { SignInAsk, ToolCallStatus, ToolContentItem, ToolMessage, ViewResult } from '../../shared/chat.js';
import { HOST_APP_ID } from '../dataHome.js';
import { shownUrl } from '../mcp/config/shownUrl.js';
import { McpRuntimeError } from '../mcp/mcpRuntimeError.js';
import { withoutStackTraces } from '../mcp/stackTrace.js';
import { GatewayError, type Caller, type GatewayCallResult, type ToolGateway } from '../tools/toolGateway.js';
import { callProgress, type RunningCalls } from '../tools/runningCalls.js';
import type { ArtifactFile, ChatEvent } from './chatPolicy.js';
import type { StreamedCall } from './streamedAnswer.js';
import { resultSummary, storedContent, textItem } from './toolResults.js';
import type { TurnSetup } from './turnSetup.js';
import { viewResultOf } from './viewResult.js';

/** A tool message before it has its place in the conversation (id, parent, time). */
export type ToolResultDraft = Omit<ToolMessage, 'id' | 'parentId' | 'at'>;

export interface ToolCallDeps {
  gateway: Pick<ToolGateway, 'callTool'>;
  emit(event: ChatEvent): void;
  /** The host's clock (its scheduler's): a call's run time is counted on it, so a test moves it instead of waiting. */
  now(): number;
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
 * time, their results in the order of the calls. Whether a call asks for
 * confirmation is the gateway's to decide; the calls of one message share a
 * group id, so a face asks once for all of those that do.
 */
export async function runToolCalls(deps: ToolCallDeps, batch: CallBatch): Promise<ToolResultDraft[]> {
  const { setup, calls } = batch;
  const caller: Caller = calls.length >= 2 ? { ...setup.caller, confirmationGroup: batch.messageId } : setup.caller;
  return Promise.all(calls.map((call) => runOne(deps, batch, caller, call)));
}

async function runOne(deps: ToolCallDeps, batch: CallBatch, caller: Caller, call: StreamedCall): Promise<ToolResultDraft> {
  // Its run time: from now, or from the user's approval when it waits for one (the user's thinking is not the tool's time).
  let started = deps.now();
  /** Asked and not (yet) approved: a call that ends so never ran, and has no run time. */
  let waiting = false;
  let childConversationId: string | undefined;
  const base = { conversationId: batch.conversationId, messageId: batch.messageId, callId: call.id, name: call.name, argumentsText: call.argumentsText };
  deps.emit({ type: 'toolCall', call: { ...base, phase: 'started' } });
  const finish = (
    status: ToolCallStatus,
    content: ToolContentItem[],
    extra: { serverId?: string; artifacts?: ArtifactFile[]; signIn?: SignInAsk; maxResultChars?: number; view?: string; viewResult?: ViewResult } = {},
  ): ToolResultDraft => {
    // Never below 0: the wall clock may be set back while a call runs.
    const durationMs = waiting ? 0 : Math.max(0, Math.round(deps.now() - started));
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
      ...(extra.maxResultChars === undefined ? {} : { maxResultChars: extra.maxResultChars }),
      ...(childConversationId ? { childConversationId } : {}),
      ...(extra.view ? { view: extra.view } : {}),
      ...(extra.viewResult ? { viewResult: extra.viewResult } : {}),
      ...signIn,
    };
  };

  if (call.type === 'tool-call-malformed') {
    return finish('error', textItem(`${call.message}: ${JSON.stringify(call.argumentsText.slice(0, 500))}. Call ${call.name} again with its arguments as one JSON object.`));
  }
  if (batch.signal.aborted) return finish('cancelled', textItem('Not run: the user stopped the conversation.'));
  if (batch.setup.appOnly.has(call.name)) return finish('refused', textItem(`Refused: ${call.name} is not offered to you; only its app's view calls it.`));

  // This call's own signal: a Stop of the turn aborts it, and so does a Cancel of this call alone (a sub-agent's run
  // stops as a Stop would stop it; the turn goes on).
  const running = deps.calls?.begin(chatCallKey(batch.conversationId, call.id), batch.signal) ?? { signal: batch.signal, end: () => undefined };
  const cancelled = () =>
    finish('cancelled', textItem(batch.signal.aborted ? 'Cancelled: the user stopped the conversation while this call ran.' : 'Cancelled: the user cancelled this call while it ran.'));
  const onProgress = (progress: Parameters<typeof callProgress>[0]) => deps.emit({ type: 'toolCall', call: { ...base, phase: 'progress', progress: callProgress(progress) } });
  const onConversation = (childId: string) => {
    childConversationId = childId;
    deps.emit({ type: 'toolCall', call: { ...base, phase: 'started', childConversationId: childId } });
  };
  const onAsked = (request: { id: string; expiresAt: number; createdAt: number }) => {
    waiting = true;
    deps.emit({ type: 'toolCall', call: { ...base, phase: 'awaiting', confirmation: { id: request.id, expiresAt: request.expiresAt, createdAt: request.createdAt } } });
  };
  const onApproved = () => {
    if (!waiting) return;
    waiting = false;
    started = deps.now();
    deps.emit({ type: 'toolCall', call: { ...base, phase: 'started' } });
  };
  try {
    const calling = deps.gateway.callTool(caller, call.name, call.args, { signal: running.signal, onProgress, onAsked, onApproved, artifactsDir: batch.artifactsDir, callId: call.id, onConversation });
    // Whatever the call does after a Stop or Cancel is not waited for (its failure then is expected and dropped), unless it
    // settles only once its work stopped: a sub-agent's run writes its stopped state before the turn goes on.
    calling.catch(() => undefined);
    const result: GatewayCallResult | undefined = batch.setup.settlesOnAbort.has(call.name) ? await calling : await Promise.race([calling, abortedPromise(running.signal).then(() => undefined)]);
    if (!result) return cancelled();
    const serverId = result.tool.serverId;
    const artifacts = result.artifacts.map((a) => ({ file: a.path, mimeType: a.mimeType }));
    const content = [...storedContent(result.result, batch.folder), ...result.reminders.map((text) => ({ type: 'reminder' as const, text }))];
    const status: ToolCallStatus =
      result.cancelled || result.decision === 'withdrawn' ? 'cancelled' : result.decision === 'declined' || result.decision === 'expired' ? 'declined' : result.result.isError ? 'error' : 'ok';
    const view = batch.setup.views.get(call.name);
    // A view gets the whole result (docs/rules/mcp-apps.md#the-result-a-view-gets): what it holds beside its content is kept for it.
    const viewResult = view ? viewResultOf(result.result) : undefined;
    return finish(status, content, {
      serverId,
      artifacts,
      ...(result.maxResultChars === undefined ? {} : { maxResultChars: result.maxResultChars }),
      ...(view ? { view } : {}),
      ...(viewResult ? { viewResult } : {}),
    });
  } catch (error) {
    if (running.signal.aborted) return cancelled();
    if (error instanceof GatewayError) return finish('refused', textItem(`Refused: ${error.message}`));
    // A server's words (a crash's last stderr lines, its JSON-RPC error) without their stack traces (docs/rules/gateway.md#no-stack-traces).
    if (error instanceof McpRuntimeError)
      return finish('error', textItem(`The call failed: ${withoutStackTraces(withUrlsShortened(error.message))}`), { ...(error.serverId ? { serverId: error.serverId } : {}), ...signInAsk(error) });
    return finish('error', textItem(`The call failed: ${withoutStackTraces((error as Error).message)}`));
  } finally {
    running.end();
  }
}

/**
 * A failure's text as the model may read it: a server's url cut to its
 * origin (docs/rules/settings-server.md#what-the-model-sees), since hosted
 * servers keep their key in the path or query (`/s/<key>/mcp`, `?api_key=`)
 * and a prompt-injected model would pass it on. The user reads the full
 * message on the server's card and in its log.
 */
export function withUrlsShortened(message: string): string {
  return message.replace(/\bhttps?:\/\/[^\s"'<>]+/g, (url) => {
    // Punctuation after the url is the sentence's. Found by walking back, not by a `[...]+$` regex, which is
    // quadratic on a long run of dots (a server's stderr lands in these messages).
    let end = url.length;
    while (end > 0 && '.,;:)]'.includes(url[end - 1]!)) end--;
    return shownUrl(url.slice(0, end)) + url.slice(end);
  });
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
