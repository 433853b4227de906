import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { RunningCalls } from '../tools/runningCalls.js';
import { chatCallKey } from './toolCalls.js';
import type {
  AssistantMessage,
  AppContext,
  Attachment,
  Conversation,
  ConversationDetail,
  ConversationMessage,
  ConversationWindowRequest,
  ExportFormat,
  PendingAttachment,
  PromptSource,
  SearchHit,
  StopInfo,
  UserMessage,
} from '../../shared/chat.js';
import { modelKind } from '../../shared/models.js';
import type { Problem } from '../../shared/problems.js';
import type { ToolConfirmationService } from '../confirmation/toolConfirmationService.js';
import type { Logger } from '../ports.js';
import { readAttachment, readAttachmentFile } from './attachments/attachmentFile.js';
import { PendingAttachments, storeAttachments } from './attachments/pendingAttachments.js';
import { AppMessageLimiter, checkAppMessage, type AppMessageInput } from './appMessages.js';
import { appContextText, mergeAppContext, PendingAppContext, type AppContextInput } from './appContext.js';
import { resourceAttachment } from './attachments/resourceAttachment.js';
import type { ResourceRead } from '../../shared/resources.js';
import { ChatError } from './chatError.js';
import type { GotPrompt } from '../../shared/mcpPrompts.js';
import { promptTurns } from './promptTurns.js';
import type { ChatEvent } from './chatPolicy.js';
import { ChatRunner, type ChatTurnDeps, type TurnOutcome } from './chatTurn.js';
import type { SubAgentRun, SubAgentRunInput } from './subAgentSource.js';
import { exportConversation } from './conversationExport.js';
import { searchConversation } from './conversationSearch.js';
import { readConversationArtifact } from './conversations/artifactFile.js';
import { ConversationIndex } from './conversations/conversationIndex.js';
import { ConversationStore } from './conversations/conversationStore.js';
import type { RecordsStore } from '../store/recordsStore.js';

export interface ChatServiceDeps extends Omit<ChatTurnDeps, 'store' | 'emit' | 'running' | 'save' | 'endConversation' | 'calls'> {
  records: RecordsStore;
  conversationsDir: string;
  confirmations: ToolConfirmationService;
  /** Releases every lease a conversation holds (docs/rules/chat.md#leases-belong-to-the-conversation). */
  releaseLeases(conversationId: string): Promise<number>;
  logger: Logger;
}

/** A turn that was started: its ids at once, its end later (`done` never rejects). */
export interface StartedTurn {
  conversationId: string;
  /** The user message sent (send, edit); absent for resume and regenerate. */
  userMessageId?: string;
  /** Its messages start with that user message. */
  done: Promise<TurnOutcome>;
}

const HOST_STOPPED: StopInfo = { kind: 'interrupted', message: 'the host was shut down while this answer was running', hint: 'resume the conversation' };
const USER_STOPPED: StopInfo = { kind: 'user', message: 'stopped by the user' };

/** Clients kept for entries in use: an SDK client costs more to build than a turn's own work, and holds no conversation state. */
const CLIENTS_KEPT = 8;

function clientMemo(make: ChatServiceDeps['clientFor']): ChatServiceDeps['clientFor'] {
  const clients = new Map<string, ReturnType<ChatServiceDeps['clientFor']>>();
  return (entry, key) => {
    // The entry as stored and its key: any edit (URL, model, key) makes a new client. The key stays in this process's memory, as with the client itself.
    const id = `${JSON.stringify(entry)}\u0000${key ?? ''}`;
    let client = clients.get(id);
    if (!client) {
      client = make(entry, key);
      if (clients.size >= CLIENTS_KEPT) clients.delete(clients.keys().next().value!);
      clients.set(id, client);
    }
    return client;
  };
}

/** A turn's outcome with the user message that started it first: every message the turn added. */
const withUser = (done: Promise<TurnOutcome>, user: UserMessage) => done.then((outcome) => ({ ...outcome, messages: [user, ...outcome.messages] }));

const titleOf = (text: string, attachments: readonly Attachment[]) => (text.trim().split('\n')[0] || attachments[0]?.name || '').slice(0, 80);

/**
 * The chat operations every face calls (docs/contributing/README.md#how-the-code-reads): create,
 * send, stop, resume, regenerate, edit, delete, search, export. A turn runs
 * here, in the core, whoever started it: a face that goes away (a closed
 * page or socket) does not stop it; only Stop, a delete or the host's
 * shutdown do.
 */
export class ChatService {
  readonly store: ConversationStore;
  private readonly runner: ChatRunner;
  private readonly running = new Map<string, AbortController>();
  /** Each tool call while it runs, so one call can be cancelled without stopping the turn. */
  private readonly calls = new RunningCalls();
  private readonly turns = new Map<string, Promise<TurnOutcome>>();
  private readonly listeners = new Set<(event: ChatEvent) => void>();
  /** Conversations created here whose row has not been written yet: their first turn waits for it. */
  private readonly unsaved = new Set<string>();
  /** Files attached and not sent yet. */
  private readonly attachments: PendingAttachments;
  private readonly appMessages: AppMessageLimiter;
  /** What apps' views told the model, waiting for the next message of each conversation (in memory only). */
  private readonly appContext = new PendingAppContext();

  constructor(private readonly deps: ChatServiceDeps) {
    this.attachments = new PendingAttachments(deps.now);
    this.appMessages = new AppMessageLimiter(deps.now);
    this.store = new ConversationStore({ index: new ConversationIndex(deps.records), dir: deps.conversationsDir, now: deps.now, runningHere: (id) => this.running.has(id) });
    this.runner = new ChatRunner({
      ...deps,
      clientFor: clientMemo(deps.clientFor),
      store: this.store,
      emit: (event) => this.emit(event),
      running: this.running,
      calls: this.calls,
      // A new row is written before the first request; a changed one goes with the store's own batched write, after it.
      save: (id) => (this.unsaved.delete(id) ? { mustWait: true, done: deps.records.flush() } : { mustWait: false, done: Promise.resolve() }),
      endConversation: (id) => this.close(id).then(() => undefined),
    });
  }

  /** Runs a sub-agent in a child conversation of the caller's (the gateway's sub-agent source asks, for each call it lets through). */
  runSubAgent(input: SubAgentRunInput): Promise<SubAgentRun> {
    return this.runner.runSubAgent(input);
  }

  onEvent(listener: (event: ChatEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: ChatEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.deps.logger.warn(`a chat event listener failed: ${(error as Error).message}`);
      }
    }
  }

  // ---- conversations ---------------------------------------------------------

  list(options: { includeChildren?: boolean; agentId?: string } = {}): Conversation[] {
    return this.store.list(options);
  }

  get(id: string): ConversationDetail {
    return this.store.detail(id);
  }

  /**
   * A window of the conversation's branch (see ConversationStore.window). A
   * message to show that is on another branch (a search hit in an earlier
   * edit) makes its branch the active one first, as picking it would.
   */
  window(id: string, request: ConversationWindowRequest): ConversationDetail {
    if (request.around !== undefined && request.leafId === undefined && !this.store.onActiveBranch(id, request.around)) this.setBranch(id, request.around);
    return this.store.window(id, request);
  }

  create(agentId: string, title = ''): Conversation {
    this.requireAgent(agentId);
    const conversation = this.store.create({ agentId, title });
    this.unsaved.add(conversation.id);
    this.emit({ type: 'conversations' });
    return conversation;
  }

  rename(id: string, title: string): Conversation {
    const renamed = this.store.rename(id, title.trim().slice(0, 500));
    this.emit({ type: 'conversations' });
    return renamed;
  }

  /** Picks the branch through `messageId` (an edit or regeneration shown as a sibling): its newest leaf becomes the active one. */
  setBranch(id: string, messageId: string): ConversationDetail {
    const { tree } = this.openIdle(id);
    if (!tree.get(messageId)) throw new ChatError('MESSAGE_NOT_FOUND', `conversation "${id}" has no message "${messageId}"`);
    this.store.update(id, (c) => ({ ...c, leafId: tree.effectiveLeaf(messageId), updatedAt: this.deps.now() }));
    return this.store.detail(id);
  }

  /** Ends a conversation's leases and its "for this conversation" approvals (it is closed, or its sub-agent run ended). */
  async close(id: string): Promise<number> {
    this.deps.confirmations.forgetConversation(id);
    await this.deps.acp?.close(id);
    return this.deps.releaseLeases(id);
  }

  /** Stops what runs in it, releases its leases and approvals (and its sub-agent runs'), and removes it from disk and index. */
  async delete(id: string): Promise<{ deleted: boolean; released: number }> {
    if (!this.store.has(id)) return { deleted: false, released: 0 };
    const family = this.familyOf(id);
    // A run in another process would go on writing into a folder that is gone: it is stopped there first.
    for (const member of family) {
      const { status } = this.store.get(member);
      if (status.kind === 'running' && !this.running.has(member))
        throw new ChatError('CONVERSATION_BUSY', `conversation "${member}" is answering in another ChatOS process (pid ${status.pid})`, 'stop it there, or wait for it to finish, then delete it');
    }
    for (const member of family) this.running.get(member)?.abort({ kind: 'interrupted', message: 'the conversation was deleted' } satisfies StopInfo);
    await Promise.all(family.map((member) => this.turns.get(member)));
    let released = 0;
    for (const member of family) released += await this.close(member);
    for (const member of family) this.appContext.forget(member);
    this.store.delete(id);
    this.emit({ type: 'conversations' });
    return { deleted: true, released };
  }

  /** The conversation and every sub-agent run below it. */
  private familyOf(id: string): string[] {
    const children = new Map<string, string[]>();
    for (const c of this.store.list({ includeChildren: true })) {
      if (!c.parent) continue;
      children.set(c.parent.conversationId, [...(children.get(c.parent.conversationId) ?? []), c.id]);
    }
    const family: string[] = [];
    const visit = (current: string) => {
      if (family.includes(current)) return;
      family.push(current);
      for (const child of children.get(current) ?? []) visit(child);
    };
    visit(id);
    return family;
  }

  search(query: string, limit = 50): SearchHit[] {
    const text = query.trim();
    if (!text) return [];
    const hits: SearchHit[] = [];
    for (const conversation of this.store.list()) {
      if (hits.length >= limit) break;
      let messages: readonly ConversationMessage[] = [];
      try {
        messages = this.store.log(conversation.id).read().messages;
      } catch (error) {
        this.deps.logger.warn(`search skipped conversation ${conversation.id}: ${(error as Error).message}`);
      }
      hits.push(...searchConversation(conversation, messages, text, limit - hits.length));
    }
    return hits;
  }

  export(id: string, format: ExportFormat): { filename: string; mimeType: string; text: string } {
    const folder = this.store.folder(id);
    return exportConversation(this.store.detail(id), format, (artifact) => readConversationArtifact(folder, artifact));
  }

  // ---- turns -----------------------------------------------------------------

  /**
   * Reads a file to attach to the next message (docs/using/chat.md#attachments): an image, or a
   * document's text, checked now (a file too large, of a type the host
   * cannot read, or without text is refused, naming it and the fix), kept
   * until a send names its id.
   */
  async attach(name: string, bytes: Buffer): Promise<PendingAttachment> {
    return this.attachments.add(await readAttachment(name, bytes));
  }

  /** attach() for a file on disk (the CLI's --attach): only a regular file, refused by its size before it is read. */
  async attachFile(file: string): Promise<PendingAttachment> {
    const { name, bytes } = readAttachmentFile(file);
    return this.attach(name, bytes);
  }

  /** A server's resource, read through the checked path (host.tools.resources.read), to attach to the next message as attach() does a file. */
  async attachResource(read: ResourceRead): Promise<PendingAttachment> {
    return this.attachments.add(await resourceAttachment(read));
  }

  /** Forgets an attachment not sent yet (the user removed it). */
  discardAttachment(id: string): boolean {
    return this.attachments.discard(id);
  }

  /**
   * A user message, then a turn; a new conversation when none is named. `modelId`: switch the conversation to that model first.
   * `attachments`: ids attach() returned; the message carries them (its text may then be empty). Returns at once.
   */
  send(input: { conversationId?: string; agentId?: string; text: string; modelId?: string; attachments?: readonly string[] }): StartedTurn {
    const attachmentIds = input.attachments ?? [];
    this.attachments.check(attachmentIds);
    if (!input.text.trim() && !attachmentIds.length) throw new ChatError('MESSAGE_EMPTY', 'the message is empty', 'write something, or attach a file');
    let id: string;
    if (input.conversationId !== undefined) id = input.conversationId;
    else if (input.agentId !== undefined) id = this.create(input.agentId).id;
    else throw new ChatError('AGENT_NOT_FOUND', 'name the conversation to continue, or the agent to start one with');
    if (input.modelId !== undefined) this.setModel(id, input.modelId);
    const { conversation, leafId } = this.openIdle(id);
    const attachments = storeAttachments(this.store.folder(conversation.id), this.attachments.take(attachmentIds), this.deps.now());
    const user = this.appendUser(conversation, leafId, input.text, attachments, this.appContext.take(conversation.id));
    return { conversationId: conversation.id, userMessageId: user.id, done: withUser(this.start(conversation, user.id), user) };
  }

  /**
   * An MCP prompt, got through the checked path (host.tools.prompts.get), sent into the conversation
   * (docs/using/slash-commands.md#what-is-sent): its user messages as the user's (their images attached),
   * its assistant turns stored as the prompt's, in its order, then a turn from the last of them. Only the
   * conversation's own agent sends it; without a conversation, it starts one with the agent (a slash command as the
   * first message). Returns once stored.
   */
  async sendPrompt(input: { conversationId?: string; agentId: string; prompt: GotPrompt }): Promise<StartedTurn> {
    // The images are read before the conversation is looked at: nothing can send into it between the check and the writes.
    // A new conversation is made only then too, so a prompt that fails leaves none behind.
    const turns = await promptTurns(input.prompt);
    const { conversation, leafId } = this.openIdle(input.conversationId ?? this.create(input.agentId).id);
    if (conversation.agentId !== input.agentId)
      throw new ChatError('AGENT_MISMATCH', `conversation "${conversation.id}" belongs to agent "${conversation.agentId}", not "${input.agentId}"`, "send the prompt as the conversation's agent");
    const source = { serverId: input.prompt.serverId, name: input.prompt.name };
    const stored: ConversationMessage[] = [];
    let parentId = leafId;
    // The apps' pending context goes with the prompt's last user turn, the one the model answers (docs/rules/app-messages.md).
    const lastUser = turns.map((turn) => turn.role).lastIndexOf('user');
    for (const [index, turn] of turns.entries()) {
      if (turn.role === 'user') {
        const attachments = storeAttachments(this.store.folder(conversation.id), turn.images, this.deps.now());
        const appContext = index === lastUser ? this.appContext.take(conversation.id) : [];
        // The row read again: only the first user turn names a conversation that has no title yet.
        stored.push(this.appendUser(this.store.get(conversation.id), parentId, turn.text, attachments, appContext, source));
      } else {
        const answer: AssistantMessage = {
          id: randomUUID(),
          parentId,
          at: this.deps.now(),
          role: 'assistant',
          agentId: conversation.agentId,
          modelId: '',
          text: turn.text,
          toolCalls: [],
          status: 'complete',
          stats: { durationMs: 0, toolsSent: 0, attempts: 1 },
          prompt: source,
        };
        this.store.append(conversation.id, answer);
        this.emit({ type: 'message', conversationId: conversation.id, message: answer });
        stored.push(answer);
      }
      parentId = stored.at(-1)!.id;
    }
    const done = this.start(conversation, parentId).then((outcome) => ({ ...outcome, messages: [...stored, ...outcome.messages] }));
    return { conversationId: conversation.id, userMessageId: stored.find((m) => m.role === 'user')!.id, done };
  }

  /**
   * A message an app posted into the conversation (docs/rules/app-messages.md), then a turn, as a user message
   * would start one: stored and shown as the app's, sent to the model marked as data from it. Bounded in size and
   * rate-limited per app; refused while the conversation answers. Returns at once.
   */
  postAppMessage(input: AppMessageInput): StartedTurn {
    const { text, state } = checkAppMessage(input);
    const { conversation, leafId } = this.openIdle(input.conversationId);
    this.appMessages.take(input.source);
    const appContext = this.appContext.take(conversation.id);
    const message: UserMessage = {
      id: randomUUID(),
      parentId: leafId,
      at: this.deps.now(),
      role: 'user',
      text,
      from: { ...input.source },
      ...(state !== undefined ? { state } : {}),
      ...(appContext.length ? { appContext } : {}),
    };
    this.store.append(conversation.id, message);
    if (!conversation.title) this.store.rename(conversation.id, `${input.source.name}: ${titleOf(text, [])}`.slice(0, 80));
    this.emit({ type: 'message', conversationId: conversation.id, message });
    return { conversationId: conversation.id, userMessageId: message.id, done: withUser(this.start(conversation, message.id), message) };
  }

  /**
   * What an app's view tells the model without starting a turn (docs/rules/app-messages.md#context-from-an-app):
   * it overwrites the app's previous update and waits, in memory, for the conversation's next message (send,
   * postAppMessage, edit), which carries it. Taken while the conversation answers too (for the next message).
   * An update that says nothing clears the app's context.
   */
  setAppContext(input: AppContextInput): { pending: boolean } {
    this.store.get(input.conversationId);
    const text = appContextText(input);
    this.appContext.set(input.conversationId, input.source, text);
    return { pending: text !== undefined };
  }

  /** Edits a sent message: the edited text is a new branch from the same point; the earlier branch stays reachable. */
  edit(input: { conversationId: string; messageId: string; text: string }): StartedTurn {
    const { conversation, tree } = this.openIdle(input.conversationId);
    const original = tree.get(input.messageId);
    if (!original || original.role !== 'user' || original.from)
      throw new ChatError('MESSAGE_NOT_FOUND', `conversation "${conversation.id}" has no user message "${input.messageId}"`, 'edit one of the messages you sent');
    // The edited message keeps the files the original carried (they stay in the conversation's folder), and the
    // apps' context it carried, each app's replaced by a newer one waiting.
    const appContext = mergeAppContext(original.appContext ?? [], this.appContext.take(conversation.id));
    const user = this.appendUser(conversation, original.parentId, input.text, original.attachments ?? [], appContext);
    return { conversationId: conversation.id, userMessageId: user.id, done: withUser(this.start(conversation, user.id), user) };
  }

  /** A new answer to the last user message of the branch (or the one before `messageId`), beside the earlier one. */
  regenerate(input: { conversationId: string; messageId?: string }): StartedTurn {
    const { conversation, tree, leafId } = this.openIdle(input.conversationId);
    const path = tree.pathTo(input.messageId ?? leafId);
    if (input.messageId !== undefined && !path.length) throw new ChatError('MESSAGE_NOT_FOUND', `conversation "${conversation.id}" has no message "${input.messageId}"`);
    const user = [...path].reverse().find((m) => m.role === 'user');
    if (!user) throw new ChatError('NOTHING_TO_REGENERATE', 'there is no message to answer again yet', 'send a message first');
    return { conversationId: conversation.id, done: this.start(conversation, user.id) };
  }

  /**
   * Continues a stopped conversation from where it stopped (after the user
   * fixed what stopped it). A partial answer stays as it was, and the new
   * one is written beside it.
   */
  resume(conversationId: string, options: { summarize?: boolean } = {}): StartedTurn {
    const { conversation, tree, leafId } = this.openIdle(conversationId);
    const leaf = leafId === null ? undefined : tree.get(leafId);
    if (!leaf) throw new ChatError('NOTHING_TO_RESUME', 'the conversation has no message yet', 'send one');
    let from: string | null = leaf.id;
    if (leaf.role === 'assistant' && !leaf.toolCalls.length) {
      if (leaf.status === 'complete')
        throw new ChatError('NOTHING_TO_RESUME', 'the last answer is complete', leaf.finish === 'length' ? 'it was cut at the token limit: continue it' : 'send a message, or regenerate the answer');
      from = leaf.parentId;
    }
    return { conversationId, done: this.start(conversation, from, options.summarize === true) };
  }

  /**
   * Goes on with the last answer, which the model cut at its token limit:
   * a new answer after it, the model asked to carry on from where it
   * stopped (history.ts), the cut one kept as it is.
   */
  continue(conversationId: string): StartedTurn {
    const { conversation, tree, leafId } = this.openIdle(conversationId);
    const leaf = leafId === null ? undefined : tree.get(leafId);
    if (leaf?.role !== 'assistant' || leaf.finish !== 'length' || leaf.toolCalls.length) {
      throw new ChatError('NOTHING_TO_CONTINUE', 'the last answer was not cut at the token limit', "send a message instead (or raise the model entry's max tokens, if answers are often cut)");
    }
    return { conversationId, done: this.start(conversation, leaf.id) };
  }

  /**
   * Switches the model answering in this conversation from its next
   * request on; null goes back to the agent's. Recorded on the conversation
   * (and every answer names the model that wrote it).
   */
  setModel(conversationId: string, modelId: string | null): Conversation {
    const { conversation } = this.openIdle(conversationId);
    if (modelId !== null) {
      const entry = this.deps.models.get(modelId);
      if (!entry) throw new ChatError('MODEL_NOT_FOUND', `no model "${modelId}"`, 'list them with: chatos models list');
      if (modelKind(entry) !== 'chat') throw new ChatError('MODEL_NOT_CHAT', `model "${modelId}" is an embedding model; it cannot answer in a chat`, 'choose a chat model');
    }
    const updated = this.store.update(conversation.id, (c) => {
      const { modelId: _previous, ...rest } = c;
      return { ...rest, ...(modelId !== null ? { modelId } : {}), updatedAt: this.deps.now() };
    });
    this.emit({ type: 'conversations' });
    return updated;
  }

  /** A stored conversation's row, or undefined when there is none with this id (a Playground's lease). */
  row(id: string): Conversation | undefined {
    return this.store.has(id) ? this.store.get(id) : undefined;
  }

  /**
   * Saves a conversation's own workspace roots, already checked
   * (docs/using/chat.md#workspace-roots); null goes back to its agent's. A
   * turn may be running: its servers are told the change.
   */
  saveRoots(conversationId: string, roots: string[] | null): Conversation {
    const updated = this.store.update(conversationId, (c) => {
      const { roots: _previous, ...rest } = c;
      return { ...rest, ...(roots !== null ? { roots } : {}), updatedAt: this.deps.now() };
    });
    this.emit({ type: 'conversations' });
    return updated;
  }

  /** Keeps the ACP session its agent's program answers in (docs/using/acp.md#resuming); nothing for a conversation not stored. */
  saveAcpSession(conversationId: string, acpSession: NonNullable<Conversation['acpSession']>): void {
    if (this.row(conversationId)) this.store.update(conversationId, (c) => ({ ...c, acpSession }));
  }

  /** Stops the turn running in this process: the stream is aborted, calls in flight are cancelled, waiting confirmations declined. */
  stop(conversationId: string): boolean {
    const controller = this.running.get(conversationId);
    if (!controller) return false;
    controller.abort(USER_STOPPED);
    // Sub-agent runs abort with their parent: their waiting confirmations go too.
    for (const [id, run] of this.running) if (run.signal.aborted) this.deps.confirmations.declinePending(id);
    return true;
  }

  /**
   * Cancels one running tool call of a conversation: its MCP request is
   * aborted (the server is told) and the call ends as cancelled; the turn
   * goes on, so the model learns the call was cancelled. False when no such
   * call runs now.
   */
  cancelCall(conversationId: string, callId: string): boolean {
    return this.calls.cancel(chatCallKey(conversationId, callId));
  }

  isRunning(conversationId: string): boolean {
    return this.running.has(conversationId);
  }

  /** Conversations stopped by an error (a rejected request, a missing key, tries used up), as problems until resumed or deleted. */
  problems(): Problem[] {
    return this.store.list({ includeChildren: true }).flatMap((c) => {
      if (c.status.kind !== 'stopped' || c.status.stop.kind !== 'error') return [];
      const { stop } = c.status;
      const tool = stop.provider?.toolName ? ` [tool ${stop.provider.toolName}]` : '';
      return [
        {
          severity: 'error' as const,
          code: stop.code ?? 'CHAT_STOPPED',
          file: this.store.folder(c.id),
          path: '',
          message: `conversation ${c.id}${c.title ? ` ("${c.title}")` : ''} stopped: ${stop.message}${tool}`,
          hint: stop.hint ?? 'fix it, then resume the conversation',
        },
      ];
    });
  }

  /** Stops every run (the host is shutting down) and waits for them to write what they have. */
  async dispose(): Promise<void> {
    for (const controller of this.running.values()) controller.abort(HOST_STOPPED);
    await Promise.all([...this.turns.values()]);
    await this.deps.acp?.dispose();
  }

  // ---- internals -----------------------------------------------------------------

  private requireAgent(agentId: string): void {
    if (!this.deps.agents.get(agentId)) throw new ChatError('AGENT_NOT_FOUND', `no agent "${agentId}"`, 'list them with: chatos agents list');
  }

  /** The conversation read once (its row and messages), when nothing runs in it. */
  private openIdle(id: string) {
    const opened = this.store.open(id);
    this.assertIdle(opened.conversation);
    return opened;
  }

  private assertIdle(conversation: Conversation): void {
    if (this.running.has(conversation.id)) throw new ChatError('CONVERSATION_BUSY', `conversation "${conversation.id}" is answering now`, 'wait for it, or stop it first');
    if (conversation.status.kind === 'running')
      throw new ChatError('CONVERSATION_BUSY', `conversation "${conversation.id}" is answering in another ChatOS process (pid ${conversation.status.pid})`, 'wait for it to finish there');
  }

  private appendUser(conversation: Conversation, parentId: string | null, text: string, attachments: readonly Attachment[], appContext: readonly AppContext[], prompt?: PromptSource): UserMessage {
    const user: UserMessage = {
      id: randomUUID(),
      parentId,
      at: this.deps.now(),
      role: 'user',
      text,
      ...(attachments.length ? { attachments: [...attachments] } : {}),
      ...(prompt ? { prompt } : {}),
      ...(appContext.length ? { appContext: [...appContext] } : {}),
    };
    this.store.append(conversation.id, user);
    if (!conversation.title) this.store.rename(conversation.id, titleOf(text, attachments));
    // What a face serves of the message: each image, and each document's original.
    const served = attachments.flatMap((a) => (a.kind === 'image' ? [{ artifact: a.artifact, mimeType: a.mimeType }] : a.original ? [{ artifact: a.original, mimeType: a.mimeType }] : []));
    const images = served.map(({ artifact, mimeType }) => ({ artifact, file: path.join(this.store.folder(conversation.id), artifact), mimeType }));
    this.emit({ type: 'message', conversationId: conversation.id, message: user, ...(images.length ? { artifacts: images } : {}) });
    return user;
  }

  private start(conversation: Conversation, leafId: string | null, summarize = false): Promise<TurnOutcome> {
    const conversationId = conversation.id;
    const controller = new AbortController();
    // Registered before the first await, so a Stop right after send finds it.
    this.running.set(conversationId, controller);
    const done = this.runner.run(conversation, leafId, { controller, depth: conversation.parent?.depth ?? 0, summarize }).catch((error: unknown): TurnOutcome => {
      this.deps.logger.error(`conversation ${conversationId}: the turn failed: ${(error as Error).stack ?? String(error)}`);
      const stop: StopInfo = { kind: 'error', code: 'CHAT_FAILED', message: `the turn failed: ${(error as Error).message}` };
      try {
        this.store.update(conversationId, (c) => ({ ...c, status: { kind: 'stopped', at: this.deps.now(), stop }, updatedAt: this.deps.now() }));
      } catch {
        // Deleted meanwhile: nothing to mark.
      }
      this.emit({ type: 'status', status: { conversationId, status: 'stopped', stop } });
      return { conversationId, status: 'stopped', stop, messages: [], leafId, problems: [] };
    });
    const tracked = done.finally(() => {
      this.turns.delete(conversationId);
      this.running.delete(conversationId);
    });
    this.turns.set(conversationId, tracked);
    return tracked;
  }
}
