import { agent, PROTOCOL_VERSION, RequestError, type AgentConnection, type ContentBlock, type SessionUpdate, type Stream, type StopReason } from '@agentclientprotocol/sdk';
import type { ChatEvent } from '../core/facades/chat.js';
import type { Host } from '../core/host.js';
import type { StopInfo } from '../shared/chat.js';
import type { QuestionOf } from '../shared/question.js';
import { parsed, replayUpdates } from './acpReplay.js';

const STOP_REASON: Record<StopInfo['kind'], StopReason | undefined> = { user: 'cancelled', 'round-limit': 'max_turn_requests', 'answer-limit': 'max_tokens', error: undefined, interrupted: undefined };

const textOf = (blocks: readonly ContentBlock[]) =>
  blocks
    .map((block) => (block.type === 'text' ? block.text : block.type === 'resource_link' ? `(${block.uri})` : ''))
    .filter(Boolean)
    .join('\n');

/**
 * `chatos acp` (docs/using/acp.md#chatos-as-an-acp-agent): a ChatOS agent
 * served as an ACP agent over `stream`, for editors. Each ACP session is a
 * conversation with the agent, whose turns run in the host as every face's
 * do (its model, servers, knowledge bases and grants); what the turn
 * streams goes out as `session/update`s, and each confirmation the gateway
 * asks goes to the editor as `session/request_permission`, its answer
 * back to the question. `session/cancel` is Stop. Resolves when the editor
 * closes the connection.
 */
export async function serveAcp(host: Host, agentId: string, stream: Stream): Promise<void> {
  const sessions = new Set<string>();
  let connection: AgentConnection | undefined;
  const update = (sessionId: string, event: ChatEvent) => {
    const notify = (body: SessionUpdate) => void connection?.client.notify('session/update', { sessionId, update: body }).catch(() => undefined);
    if (event.type === 'delta') notify({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.text } });
    else if (event.type === 'reasoning') notify({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.text } });
    else if (event.type === 'toolCall' && event.call.phase === 'started')
      notify({ sessionUpdate: 'tool_call', toolCallId: event.call.callId, title: event.call.name, kind: 'other', status: 'in_progress', rawInput: parsed(event.call.argumentsText) });
    else if (event.type === 'toolCall' && event.call.phase === 'finished')
      notify({
        sessionUpdate: 'tool_call_update',
        toolCallId: event.call.callId,
        status: event.call.status === 'ok' ? 'completed' : 'failed',
        ...(event.call.summary ? { content: [{ type: 'content', content: { type: 'text', text: event.call.summary } }] } : {}),
      });
  };
  const stopEvents = host.chat.onEvent((event) => {
    const id = event.type === 'toolCall' ? event.call.conversationId : event.type === 'conversations' ? undefined : 'conversationId' in event ? event.conversationId : event.status.conversationId;
    if (id !== undefined && sessions.has(id)) update(id, event);
  });
  const stopQuestions = host.questions.on((change) => {
    if (change.change !== 'asked' || change.question.kind !== 'toolConfirmation') return;
    const question = change.question as QuestionOf<'toolConfirmation'>;
    const sessionId = question.request.conversationId;
    if (sessionId === undefined || !sessions.has(sessionId)) return;
    void askEditor(question, sessionId);
  });
  const askEditor = async (question: QuestionOf<'toolConfirmation'>, sessionId: string) => {
    const { request } = question;
    let approved = false;
    let always = false;
    try {
      const answer = await connection!.client.request('session/request_permission', {
        sessionId,
        toolCall: { toolCallId: question.call?.callId ?? request.id, title: request.summary, kind: 'other', status: 'pending', rawInput: request.args },
        options: [
          { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
          { optionId: 'always', name: `Always allow ${request.toolName}`, kind: 'allow_always' },
          { optionId: 'no', name: 'Reject', kind: 'reject_once' },
        ],
      });
      approved = answer.outcome.outcome === 'selected' && answer.outcome.optionId !== 'no';
      always = answer.outcome.outcome === 'selected' && answer.outcome.optionId === 'always';
    } catch {
      // An editor that cannot ask declines.
    }
    host.questions.respond(request.id, { kind: 'toolConfirmation', approved, scope: always ? 'always' : 'once' });
  };

  /**
   * The editor's workspace (its `cwd` and additional directories) becomes the conversation's workspace roots
   * (docs/using/chat.md#workspace-roots): the folders the agent's servers are told they may work in. A folder that
   * is not one is refused, so the editor learns it, rather than the agent working somewhere else.
   */
  const useEditorFolders = (conversationId: string, params: { cwd: string; additionalDirectories?: string[] | null }) => {
    try {
      host.mcp.roots.set(conversationId, [params.cwd, ...(params.additionalDirectories ?? [])]);
    } catch (error) {
      throw RequestError.invalidParams({ cwd: params.cwd }, (error as Error).message);
    }
  };

  const app = agent({ name: 'chatos' })
    .onRequest('initialize', () => ({
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: { loadSession: true, promptCapabilities: { image: false, audio: false, embeddedContext: false }, mcpCapabilities: { http: false, sse: false } },
      agentInfo: { name: 'chatos', title: `ChatOS: ${host.agents.get(agentId)?.name ?? agentId}`, version: '0.1.0' },
      authMethods: [],
    }))
    .onRequest('session/new', ({ params }) => {
      const conversation = host.chat.create(agentId);
      useEditorFolders(conversation.id, params);
      sessions.add(conversation.id);
      return { sessionId: conversation.id };
    })
    .onRequest('session/load', async ({ params }) => {
      // A stored conversation of this agent only: its id is the session id `session/new` gave.
      const detail = host.chat.list({ agentId }).some((c) => c.id === params.sessionId) ? host.chat.get(params.sessionId) : undefined;
      if (!detail) throw RequestError.sessionNotFound(params.sessionId);
      useEditorFolders(params.sessionId, params);
      // Replayed in order, each sent before the next, and all before the load is answered (as the ACP spec asks).
      for (const body of replayUpdates(detail.messages)) await connection!.client.notify('session/update', { sessionId: params.sessionId, update: body });
      sessions.add(params.sessionId);
      return {};
    })
    .onNotification('session/cancel', ({ params }) => {
      if (sessions.has(params.sessionId)) host.chat.stop(params.sessionId);
    })
    .onRequest('session/prompt', async ({ params }) => {
      if (!sessions.has(params.sessionId)) throw RequestError.sessionNotFound(params.sessionId);
      const outcome = await host.chat.send({ conversationId: params.sessionId, text: textOf(params.prompt) }).done;
      if (outcome.status === 'done') return { stopReason: 'end_turn' };
      const reason = outcome.stop ? STOP_REASON[outcome.stop.kind] : 'cancelled';
      if (reason) return { stopReason: reason };
      throw RequestError.internalError({ code: outcome.stop?.code, hint: outcome.stop?.hint }, outcome.stop?.message);
    });
  try {
    connection = app.connect(stream);
    await connection.closed;
  } finally {
    stopEvents();
    stopQuestions();
    for (const id of sessions) host.chat.stop(id);
  }
}
