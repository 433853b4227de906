import { ApiOutlined, BulbOutlined, EditOutlined, LeftOutlined, LoadingOutlined, ReloadOutlined, RightOutlined, RobotOutlined, StepForwardOutlined } from '@ant-design/icons';
import { Alert, Button, Input, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import { Fragment, lazy, memo, useContext, useMemo, useState, type ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { AssistantMessage, PromptSource, SummaryMessage, ToolCallEvent, ToolMessage, UserMessage } from '../../../../src/shared/chat';
import type { ToolConfirmationRequest } from '../../../../src/shared/confirmation';
import type { ElicitationRequest } from '../../../../src/shared/elicitation';
import { api } from '../../api/client';
import { ownValue } from '../../api/ownValue';
import { AnswerStats } from './AnswerStats';
import { AppContextTags } from './AppContextTags';
import { LazyConfirmationGroupCard as ConfirmationGroupCard } from './LazyConfirmationGroupCard';
import { QuestionCard } from '../questions/QuestionCard';
import type { SamplingRequest } from '../../../../src/shared/sampling';
import type { ConversationState } from './conversationState';
import { Disclosure } from './Disclosure';
import { IconButton } from './IconButton';
import { LazyMarkdown } from './LazyMarkdown';
import { CopyButton } from './markdown/CopyButton';
import { ToolCallCard } from './ToolCallCard';
import { ReviewApproval } from './reviewApproval';
import { useEditRequest } from './editRequests';
import { RowContext, useRowWords } from './rowContext';
import { useConversation } from './useConversation';
import { sidePanels } from '../sidePanel/sidePanelState';
import '../../i18n/load/chat';
import '../../i18n/load/mcpApps';
import { PartSuspense } from '../../shell/lazyPart';

/** A message's attachments: loaded with the first message that has some (the Chat page's first load has a size budget). */
// An MCP App view under a tool card: its code loads with the first call that has one.
const CallView = lazy(() => import('../mcpApps/CallView').then((module) => ({ default: module.CallView })));
const MessageAttachments = lazy(() => import('./MessageAttachments').then((module) => ({ default: module.MessageAttachments })));

/** What the user can do with messages; absent for a sub-agent's run, which is shown read-only. */
export interface MessageActions {
  edit(messageId: string, text: string): Promise<void>;
  regenerate(): Promise<void>;
  switchBranch(messageId: string): Promise<void>;
  /** Goes on with the last answer, which the model cut at its token limit. */
  continueCut(): Promise<void>;
}

interface ListProps {
  state: ConversationState;
  actions?: MessageActions;
  /** Pending confirmations of this conversation and its sub-agent runs. */
  confirmations?: ToolConfirmationRequest[];
  onAnswered?(id: string): void;
  /** Servers' questions during this conversation's tool calls (and its sub-agent runs') not shown on a call's card, each on its own card. */
  questions?: ElicitationRequest[];
  onQuestionAnswered?(id: string): void;
  /** Servers' requests to sample the model during this conversation's tool calls, each on its own card (shown like a question). */
  samplings?: SamplingRequest[];
  onSamplingAnswered?(id: string): void;
  /** The calls a server's question or sampling request waits on, shown on the call's own card: its row is where the question is. */
  askingCalls?: ReadonlySet<string>;
  /** The calls whose confirmation is shown on the call's own card: its row is where the approval is. */
  approvalCalls?: ReadonlySet<string>;
  agentName(id: string): string;
  /** A model entry's name, to say which model wrote an answer. */
  modelName?(id: string): string;
}

/** While it streams, only the end of a long thought is drawn: the whole of it is there once stored. */
const LIVE_THINKING_CHARS = 20_000;

/**
 * What the model thought before it answered: open while it thinks (the
 * text streaming in), folded as soon as the answer starts, and openable
 * again. A stored answer's thinking starts folded, with how long it took.
 */
function ThinkingBlock({ text, live, answering, durationMs, truncated }: { text: string; live: boolean; answering: boolean; durationMs?: number; truncated?: boolean }) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<boolean>();
  const open = chosen ?? (live && !answering);
  const thinking = live && !answering;
  const label = thinking ? t('chat.reasoning.live') : durationMs !== undefined ? t('chat.reasoning.done', { seconds: Math.max(1, Math.round(durationMs / 1000)) }) : t('chat.reasoning.doneShort');
  const shown = live && text.length > LIVE_THINKING_CHARS ? `…${text.slice(-LIVE_THINKING_CHARS)}` : text;
  return (
    // Plain elements, not antd's Collapse: rows mount and unmount as a long conversation scrolls (Disclosure.tsx says why).
    <div data-testid="thinking-block" data-open={open ? 'true' : 'false'} data-live={thinking ? 'true' : 'false'} className="msg-thinking-block">
      <Disclosure
        ghost
        open={open}
        onToggle={setChosen}
        toggleTestId="thinking-toggle"
        label={
          <span className="msg-thinking-label">
            {thinking ? <LoadingOutlined /> : <BulbOutlined />} {label}
          </span>
        }
      >
        <pre className="msg-thinking-text" data-testid="thinking-text">
          {shown}
        </pre>
        {truncated ? <Typography.Text type="warning">{t('chat.reasoning.truncated')}</Typography.Text> : null}
      </Disclosure>
    </div>
  );
}

/** A refusal, a filtered answer, a cut one, and what the host noticed, under the answer's text. */
function AnswerNotes({ message, canContinue, onContinue }: { message: AssistantMessage; canContinue: boolean; onContinue?: () => void }) {
  const { t } = useTranslation();
  const notices = message.notices ?? [];
  return (
    <>
      {message.refusal ? <Alert type="warning" showIcon className="msg-refusal" data-testid="message-refusal" title={t('chat.refusal.title')} description={message.refusal} /> : null}
      {message.finish === 'content-filter' ? <Alert type="warning" showIcon data-testid="message-filtered" title={t('chat.contentFilter')} /> : null}
      {message.finish === 'length' ? (
        <Space className="msg-cut" data-testid="message-cut">
          <Tag color="orange">{t('chat.cut.tag')}</Tag>
          {canContinue ? (
            <Button size="small" icon={<StepForwardOutlined />} onClick={onContinue} data-testid="message-continue">
              {t('chat.cut.continue')}
            </Button>
          ) : null}
        </Space>
      ) : null}
      {notices.length ? (
        <Alert
          type="info"
          showIcon
          className="msg-notices"
          data-testid="message-notices"
          title={t('chat.notice.title')}
          description={
            <ul>
              {notices.map((notice) => (
                <li key={notice}>{notice}</li>
              ))}
            </ul>
          }
        />
      ) : null}
    </>
  );
}

/** "‹ 2 / 3 ›" for a message with edits or regenerations beside it. */
function SiblingNav({ messageId, siblings, onSwitch, disabled }: { messageId: string; siblings?: string[]; onSwitch(id: string): void; disabled: boolean }) {
  const { word } = useRowWords();
  if (!siblings || siblings.length < 2) return null;
  const at = siblings.indexOf(messageId);
  return (
    <span className="sibling-nav" data-testid="sibling-nav">
      <IconButton icon={<LeftOutlined />} label={word('chat.branch.previous')} disabled={disabled || at <= 0} onClick={() => onSwitch(siblings[at - 1]!)} testId="sibling-previous" />
      <span className="sibling-count">
        {at + 1} / {siblings.length}
      </span>
      <IconButton icon={<RightOutlined />} label={word('chat.branch.next')} disabled={disabled || at >= siblings.length - 1} onClick={() => onSwitch(siblings[at + 1]!)} testId="sibling-next" />
    </span>
  );
}

const UserBubble = memo(function UserBubble({
  message,
  siblings,
  actions,
  busy,
  artifactUrls,
}: {
  message: UserMessage;
  siblings?: string[];
  actions?: MessageActions;
  busy: boolean;
  artifactUrls: Readonly<Record<string, string>>;
}) {
  const { word } = useRowWords();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(message.text);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    if (!actions || !text.trim()) return;
    setSaving(true);
    try {
      await actions.edit(message.id, text);
      setEditing(false);
    } finally {
      setSaving(false);
    }
  };
  const { t } = useRowWords();
  useEditRequest(message.id, actions && !message.from && !busy ? () => (setText(message.text), setEditing(true)) : undefined);
  if (message.from) {
    // An app's message (docs/rules/app-messages.md): shown with the app's name, never as the user's, and not editable.
    return (
      <div className="msg msg-app" data-testid="message-app" data-message={message.id} data-source={message.from.id}>
        <div className="msg-author" data-testid="message-app-source">
          <ApiOutlined /> {t('mcpApps.fromApp', { app: message.from.name })}
        </div>
        {message.appContext?.length ? <AppContextTags messageId={message.id} contexts={message.appContext} /> : null}
        <div className="msg-app-bubble">{message.text}</div>
        <div className="msg-tools">
          <SiblingNav messageId={message.id} siblings={siblings} onSwitch={(id) => void actions?.switchBranch(id)} disabled={busy || !actions} />
          <CopyButton text={message.text} />
        </div>
      </div>
    );
  }
  return (
    <div className="msg msg-user" data-testid="message-user" data-message={message.id}>
      {message.prompt ? <PromptSourceLine source={message.prompt} /> : null}
      {message.appContext?.length ? <AppContextTags messageId={message.id} contexts={message.appContext} /> : null}
      {message.attachments?.length ? (
        <PartSuspense fallback={null}>
          <MessageAttachments attachments={message.attachments} artifactUrls={artifactUrls} />
        </PartSuspense>
      ) : null}
      {editing ? (
        <div className="msg-edit">
          <Input.TextArea
            autoFocus
            // Opened to be changed: the caret at the end of the text, as after ↑ in peers' composers.
            onFocus={(e) => e.target.setSelectionRange(e.target.value.length, e.target.value.length)}
            value={text}
            onChange={(e) => setText(e.target.value)}
            autoSize={{ minRows: 2, maxRows: 12 }}
            data-testid="message-edit-input"
          />
          <Space>
            <Button type="primary" size="small" loading={saving} onClick={() => void save()} data-testid="message-edit-save">
              {word('chat.message.saveEdit')}
            </Button>
            <Button size="small" onClick={() => setEditing(false)}>
              {word('common.cancel')}
            </Button>
          </Space>
        </div>
      ) : message.text || !message.attachments?.length ? (
        <div className="msg-user-bubble">{message.text}</div>
      ) : null}
      {/* Plain buttons with a title: a row mounts again each time it scrolls into view, and antd's Button and Tooltip cost on each mount. */}
      <div className="msg-tools">
        <SiblingNav messageId={message.id} siblings={siblings} onSwitch={(id) => void actions?.switchBranch(id)} disabled={busy || !actions} />
        <CopyButton text={message.text} />
        {actions && !editing && (
          <IconButton icon={<EditOutlined />} label={word('chat.message.edit')} disabled={busy} onClick={() => (setText(message.text), setEditing(true))} testId="message-edit" />
        )}
      </div>
    </div>
  );
});

/** A sub-agent's run under its call: collapsed until opened, then its own conversation, live. */
function SubAgentRun({ conversationId, agentName }: { conversationId: string; agentName(id: string): string }) {
  const { word } = useRowWords();
  const [open, setOpen] = useState(false);
  return (
    <Disclosure ghost open={open} onToggle={setOpen} className="subagent-run" testId={`subagent-run-${conversationId}`} toggleTestId="subagent-toggle" label={word('chat.subAgent.run')}>
      <ChildConversation conversationId={conversationId} agentName={agentName} />
    </Disclosure>
  );
}

function ChildConversation({ conversationId, agentName }: { conversationId: string; agentName(id: string): string }) {
  const { state, error } = useConversation(conversationId);
  if (error) return <Alert type="error" showIcon title={error.message} />;
  if (!state) return <Spin size="small" />;
  return (
    <div className="subagent-messages">
      <Typography.Text type="secondary">{agentName(state.view.conversation.agentId)}</Typography.Text>
      <MessageList state={state} agentName={agentName} />
    </div>
  );
}

/** An answer; while it is written (`streaming`), its text so far and a caret, without the numbers and actions it gets once stored. */
interface AssistantProps {
  message: AssistantMessage;
  /** Per tool call of the message, in its order: the stored result, the latest event, the sub-agent run's conversation. */
  calls: { result?: ToolMessage; event?: ToolCallEvent; child?: string }[];
  /** The conversation it is in: an MCP App view under a card acts for its agent there. */
  conversationId?: string;
  artifactUrls: Readonly<Record<string, string>>;
  siblings?: string[];
  last: boolean;
  actions?: MessageActions;
  busy: boolean;
  agentName(id: string): string;
  modelName?(id: string): string;
  streaming?: boolean;
  /** While it is written: what the model thinks, so far. */
  reasoning?: string;
}

/** Re-rendered only when something it shows changed: a long conversation's earlier answers stay as they are while one streams. */
function sameAnswer(a: AssistantProps, b: AssistantProps): boolean {
  if (
    a.message !== b.message ||
    a.conversationId !== b.conversationId ||
    a.artifactUrls !== b.artifactUrls ||
    a.siblings !== b.siblings ||
    a.last !== b.last ||
    a.actions !== b.actions ||
    a.busy !== b.busy ||
    a.agentName !== b.agentName ||
    a.modelName !== b.modelName ||
    a.streaming !== b.streaming ||
    a.reasoning !== b.reasoning
  )
    return false;
  return a.calls.length === b.calls.length && a.calls.every((call, i) => call.result === b.calls[i]!.result && call.event === b.calls[i]!.event && call.child === b.calls[i]!.child);
}

const AssistantBlock = memo(function AssistantBlock(props: AssistantProps) {
  const { message, calls, conversationId, artifactUrls, siblings, last, actions, busy, agentName, modelName, streaming, reasoning } = props;
  const { t, word } = useRowWords();
  const review = useContext(ReviewApproval);
  if (streaming) {
    return (
      <div className="msg msg-assistant msg-streaming" data-testid="message-streaming" data-message={message.id}>
        <div className="msg-author">
          <RobotOutlined /> {agentName(message.agentId)}
        </div>
        {reasoning ? <ThinkingBlock text={reasoning} live answering={message.text.length > 0} /> : null}
        {message.text ? <LazyMarkdown text={message.text} streaming /> : null}
        <span className="stream-caret" />
      </div>
    );
  }
  const thought = message.reasoning;
  return (
    <div className="msg msg-assistant" data-testid="message-assistant" data-message={message.id} data-status={message.status} data-finish={message.finish ?? ''}>
      <div className="msg-author">
        <RobotOutlined /> {agentName(message.agentId)}
      </div>
      {message.prompt ? <PromptSourceLine source={message.prompt} /> : null}
      {thought?.text ? (
        <ThinkingBlock text={thought.text} live={false} answering {...(thought.durationMs !== undefined ? { durationMs: thought.durationMs } : {})} truncated={thought.truncated === true} />
      ) : null}
      {message.text && <LazyMarkdown text={message.text} />}
      <AnswerNotes message={message} canContinue={Boolean(actions && last && !busy && !message.toolCalls.length)} onContinue={() => void actions?.continueCut()} />
      {message.status === 'stopped' && (
        <Tag color={message.stop?.kind === 'user' ? 'default' : 'error'} className="msg-stopped" data-testid="message-stopped">
          {word(`chat.stopped.kind.${message.stop?.kind ?? 'error'}`)}
        </Tag>
      )}
      {message.toolCalls.length > 0 && (
        <div className="tool-calls">
          {message.toolCalls.map((call, i) => {
            const { result, event, child } = calls[i] ?? {};
            return (
              <ToolCallCard
                key={call.id}
                openKey={`${message.id}:call:${call.id}`}
                call={call}
                conversationId={conversationId}
                result={result}
                event={event}
                artifactUrls={artifactUrls}
                subAgentRun={child ? <SubAgentRun conversationId={child} agentName={agentName} /> : undefined}
                appView={
                  conversationId && result?.view ? (
                    <PartSuspense fallback={null}>
                      <CallView
                        result={result}
                        call={call}
                        agentId={message.agentId}
                        conversationId={conversationId}
                        onOpenBeside={() => sidePanels.open(conversationId, { kind: 'mcpApp', serverId: result.serverId!, toolName: call.name, resourceUri: result.view!, callId: call.id })}
                      />
                    </PartSuspense>
                  ) : undefined
                }
                onReview={review}
                {...(conversationId ? { openResource: (serverId: string, uri: string) => api.call('resources.read', { agentId: message.agentId, flow: 'main', conversationId, serverId, uri }) } : {})}
              />
            );
          })}
        </div>
      )}
      <div className="msg-foot">
        <span>
          {modelName && message.modelId ? (
            <span className="answer-model" data-testid="answer-model" data-model={message.modelId}>
              {t('chat.model.answeredBy', { name: modelName(message.modelId) })} ·{' '}
            </span>
          ) : null}
          {/* An answer the prompt wrote has no model's numbers. */}
          {message.prompt ? null : <AnswerStats stats={message.stats} />}
        </span>
        <div className="msg-tools">
          <SiblingNav messageId={message.id} siblings={siblings} onSwitch={(id) => void actions?.switchBranch(id)} disabled={busy || !actions} />
          {message.text && <CopyButton text={message.text} />}
          {actions && last && <IconButton icon={<ReloadOutlined />} label={word('chat.message.regenerate')} disabled={busy} onClick={() => void actions.regenerate()} testId="message-regenerate" />}
        </div>
      </div>
    </div>
  );
}, sameAnswer);

/** A message an MCP prompt gave (docs/using/slash-commands.md#what-is-sent): which prompt of which server. */
function PromptSourceLine({ source }: { source: PromptSource }) {
  const { t } = useRowWords();
  return (
    <div className="msg-prompt" data-testid="message-prompt" data-prompt={source.name}>
      {t('chat.message.fromPrompt', { name: source.name, server: source.serverId })}
    </div>
  );
}

const NO_STATS = { durationMs: 0, toolsSent: 0, attempts: 1 };

/** An answer being written, in the shape of the stored one it becomes. */
function streamingMessage(id: string, text: string, agentId: string): AssistantMessage {
  return { id, parentId: null, at: 0, role: 'assistant', agentId, modelId: '', text, toolCalls: [], status: 'complete', stats: NO_STATS };
}

function SummaryDivider({ message }: { message: SummaryMessage }) {
  const { t } = useRowWords();
  const [open, setOpen] = useState(false);
  return (
    <Disclosure open={open} onToggle={setOpen} className="msg-summary" testId="message-summary" label={t('chat.summary.label', { count: message.summarized })}>
      <LazyMarkdown text={message.text} />
    </Disclosure>
  );
}

/** One row of a conversation as a list shows it: a message, an answer being written, the "thinking" line, a confirmation card, a server's question. */
export interface MessageRow {
  key: string;
  node: ReactNode;
  /** The stored message it shows, for a jump to it. */
  messageId?: string;
  /** A confirmation waiting for the user: brought into view, or announced. */
  confirmation?: boolean;
  /** A server's question waiting for the user: announced too, after any confirmation. */
  question?: boolean;
  /** About how high (px) the row is, before it was ever shown: the list holds its place with it. */
  estimate?: number;
  /** It shows an MCP App view: kept mounted when it scrolls away, so the view keeps its state and answers what it asked. */
  liveView?: boolean;
}

/** A rough height of a message's row from its text (lines of about 100 characters) and tool calls, for a row never shown yet. */
function estimateHeight(text: string, toolCalls: number, chrome: number): number {
  let lines = 0;
  for (const line of text.split('\n')) lines += 1 + Math.floor(line.length / 100);
  return chrome + lines * 22 + toolCalls * 40;
}

/**
 * A conversation's active branch as rows: the user's messages, the answers
 * in Markdown with their tool calls (and sub-agent runs under them) and
 * their numbers, where older turns were summarized, the answer being
 * written, the confirmations waiting, each group on one card, and the
 * servers' questions waiting. The
 * Chat page puts them in a virtual list; a sub-agent's run lists them all.
 */
export function useMessageRows({
  state,
  actions,
  confirmations,
  onAnswered,
  questions,
  onQuestionAnswered,
  samplings,
  onSamplingAnswered,
  askingCalls,
  approvalCalls,
  agentName,
  modelName,
}: ListProps): MessageRow[] {
  const { t } = useTranslation();
  // Built again only when what they show changed: a long conversation has thousands, and the list renders for other reasons too (a page on its way).
  return useMemo(
    () => messageRows({ state, actions, confirmations, onAnswered, questions, onQuestionAnswered, samplings, onSamplingAnswered, askingCalls, approvalCalls, agentName, modelName }, t),
    [state, actions, confirmations, onAnswered, questions, onQuestionAnswered, samplings, onSamplingAnswered, askingCalls, approvalCalls, agentName, modelName, t],
  );
}

function messageRows(
  { state, actions, confirmations = [], onAnswered, questions = [], onQuestionAnswered, samplings = [], onSamplingAnswered, askingCalls, approvalCalls, agentName, modelName }: ListProps,
  t: TFunction,
): MessageRow[] {
  const { messages, siblings } = state.view;
  const conversationId = state.view.conversation.id;
  const busy = state.phase.kind === 'running';
  const results = new Map<string, ToolMessage>();
  for (const m of messages) if (m.role === 'tool') results.set(m.callId, m);
  const children = new Map(state.view.children.map((c) => [c.callId, c.conversationId]));
  const callsOf = (message: AssistantMessage) =>
    message.toolCalls.map((call) => {
      const result = results.get(call.id);
      const event = state.calls.get(call.id);
      return { result, event, child: result?.childConversationId ?? event?.childConversationId ?? children.get(call.id) };
    });
  const lastAssistant = [...messages].reverse().find((m) => m.role === 'assistant')?.id;
  const streaming = [...state.streaming].filter(([id]) => !messages.some((m) => m.id === id));
  const callsRunning = [...state.calls.values()].some((c) => (c.phase === 'started' || c.phase === 'awaiting') && !results.has(c.callId));
  const groups = new Map<string, ToolConfirmationRequest[]>();
  for (const request of confirmations) {
    const key = request.groupId ?? request.id;
    groups.set(key, [...(groups.get(key) ?? []), request]);
  }

  const rows: MessageRow[] = [];
  for (const message of messages) {
    const siblingIds = ownValue(siblings, message.id);
    switch (message.role) {
      case 'user':
        rows.push({
          key: message.id,
          messageId: message.id,
          estimate: estimateHeight(message.text, 0, message.attachments?.length ? 230 : 60),
          node: <UserBubble message={message} siblings={siblingIds} actions={actions} busy={busy} artifactUrls={state.view.artifactUrls} />,
        });
        break;
      case 'assistant':
        rows.push({
          key: message.id,
          messageId: message.id,
          estimate: estimateHeight(message.text, message.toolCalls.length, 70),
          ...(message.toolCalls.some((call) => results.get(call.id)?.view) ? { liveView: true } : {}),
          // A question on one of its calls' cards: the jump button brings this row into view.
          ...(askingCalls && message.toolCalls.some((call) => askingCalls.has(call.id)) ? { question: true } : {}),
          ...(approvalCalls && message.toolCalls.some((call) => approvalCalls.has(call.id)) ? { confirmation: true } : {}),
          node: (
            <AssistantBlock
              message={message}
              calls={callsOf(message)}
              conversationId={conversationId}
              artifactUrls={state.view.artifactUrls}
              siblings={siblingIds}
              last={message.id === lastAssistant}
              actions={actions}
              busy={busy}
              agentName={agentName}
              {...(modelName ? { modelName } : {})}
            />
          ),
        });
        break;
      case 'summary':
        rows.push({ key: message.id, messageId: message.id, node: <SummaryDivider message={message} /> });
        break;
      case 'tool':
        break; // shown on its call's card
    }
  }
  // Keyed as the stored message will be: when the answer is stored, its row stays.
  for (const [id, text] of streaming) {
    const reasoning = state.reasoning.get(id);
    rows.push({
      key: id,
      node: (
        <AssistantBlock
          message={streamingMessage(id, text, state.view.conversation.agentId)}
          calls={[]}
          artifactUrls={state.view.artifactUrls}
          last={false}
          busy
          agentName={agentName}
          streaming
          {...(reasoning ? { reasoning } : {})}
        />
      ),
    });
  }
  if (busy && streaming.length === 0 && !callsRunning && groups.size === 0 && !approvalCalls?.size && questions.length === 0 && samplings.length === 0) {
    rows.push({
      key: 'thinking',
      node: (
        <div className="msg-thinking" data-testid="chat-thinking">
          <LoadingOutlined />{' '}
          {state.phase.kind === 'running' && state.phase.retry
            ? t('chat.retrying', {
                attempt: state.phase.retry.attempt + 1,
                max: state.phase.retry.maxAttempts,
                seconds: Math.ceil(state.phase.retry.delayMs / 1000),
                error: state.phase.retry.error.message,
              })
            : t('chat.thinking')}
        </div>
      ),
    });
  }
  for (const requests of groups.values()) {
    const key = requests[0]!.groupId ?? requests[0]!.id;
    rows.push({
      key: `confirm-${key}`,
      confirmation: true,
      node: <ConfirmationGroupCard requests={requests} onAnswered={(id) => onAnswered?.(id)} subAgent={requests[0]!.conversationId !== conversationId} />,
    });
  }
  // Keyed by the question: a row the virtual list unmounts and mounts again finds what was typed in it (keptAnswers.ts).
  for (const request of questions) {
    rows.push({ key: `ask-${request.id}`, question: true, node: <QuestionCard question={{ kind: 'elicitation', request }} onAnswered={() => onQuestionAnswered?.(request.id)} /> });
  }
  for (const request of samplings) {
    const key = `sample-${request.id}-${request.stage}`;
    rows.push({ key, question: true, node: <QuestionCard key={key} question={{ kind: 'sampling', request }} onAnswered={() => onSamplingAnswered?.(request.id)} /> });
  }
  return rows;
}

/** Every row at once: a sub-agent's run, shown under its call (short, and inside the conversation's own list). */
export function MessageList(props: ListProps) {
  const rows = useMessageRows(props);
  return (
    <RowContext>
      <div className="message-list" data-testid="message-list">
        {rows.map((row) => (
          <Fragment key={row.key}>{row.node}</Fragment>
        ))}
      </div>
    </RowContext>
  );
}
