import { CompressOutlined, DownloadOutlined, PlayCircleOutlined, RobotOutlined } from '@ant-design/icons';
import { usePrefetchConfirmationCard } from './LazyConfirmationGroupCard';
import { Alert, App as AntApp, Button, Dropdown, Skeleton, Space, Tag, Typography } from 'antd';
import { lazy, memo, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { ConversationTotals } from '../../../../src/shared/chat';
import { useTranslation } from 'react-i18next';
import { api, errorLine } from '../../api/client';
import { useApi } from '../../api/hooks';
import { ApiErrorAlert } from '../../shell/ApiErrorAlert';
import { callKey, usePending } from '../../shell/questions';
import { ConversationTotalsText } from './AnswerStats';
import { usePageCommand } from '../../shell/keys/commands';
import { Composer } from './Composer';
import { requestEdit } from './editRequests';
import type { ImageSight } from './ImageModelWarning';
import { hasOlder, reachesEnd, type ConversationState } from './conversationState';
import { ConversationScroller } from './ConversationScroller';
import { prepareMarkdown } from './LazyMarkdown';
import { useMessageRows, type MessageActions } from './MessageList';
import { RowContext } from './rowContext';
import type { ModelSwitchProps } from './ModelSwitch';
import { useConversation } from './useConversation';
import '../../i18n/load/chat';
import { CardConfirmations } from './cardConfirmations';
import { PartSuspense } from '../../shell/lazyPart';

/** Messages per window: a few screens of a long conversation; older and newer ones come a window at a time as the user scrolls. */
const WINDOW = 40;
const NO_MODELS: readonly never[] = [];

/** Saves text as a file the browser downloads. */
function download(filename: string, mimeType: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The conversations whose confirmations and server questions this page shows: this one and its sub-agent runs. */
function familyOf(state: ConversationState | undefined, id: string): string[] {
  if (!state) return [id];
  const ids = new Set([id, ...state.view.children.map((c) => c.conversationId)]);
  for (const call of state.calls.values()) if (call.childConversationId) ids.add(call.childConversationId);
  for (const m of state.view.messages) if (m.role === 'tool' && m.childConversationId) ids.add(m.childConversationId);
  return [...ids];
}

/** Why the conversation stopped, and Resume once the cause is fixed (or Summarize and retry, when the conversation outgrew the model). */
function StoppedBanner({ state, onResume }: { state: ConversationState; onResume(options: { summarize?: boolean }): Promise<void> }) {
  const { t } = useTranslation();
  const [resuming, setResuming] = useState(false);
  if (state.phase.kind !== 'stopped') return null;
  const { stop } = state.phase;
  const tooLong = stop.code === 'PROVIDER_CONTEXT_TOO_LONG';
  const resume = (summarize: boolean) => {
    setResuming(true);
    void onResume(summarize ? { summarize: true } : {}).finally(() => setResuming(false));
  };
  return (
    <Alert
      className="chat-stopped"
      type={stop.kind === 'user' ? 'info' : 'error'}
      showIcon
      data-testid="chat-stopped"
      data-kind={stop.kind}
      title={t(`chat.stopped.kind.${stop.kind}`)}
      description={
        <>
          {stop.message && <div data-testid="chat-stopped-reason">{stop.message}</div>}
          {stop.hint && <div>{t('common.fix', { hint: stop.hint })}</div>}
          {stop.code && <div className="chat-stopped-code">{stop.code}</div>}
        </>
      }
      action={
        <Space orientation="vertical">
          {tooLong ? (
            <Button type="primary" icon={<CompressOutlined />} loading={resuming} onClick={() => resume(true)} data-testid="chat-summarize-retry">
              {t('chat.summarizeRetry')}
            </Button>
          ) : null}
          <Button icon={<PlayCircleOutlined />} loading={resuming} onClick={() => resume(false)} data-testid="chat-resume">
            {t('chat.resume')}
          </Button>
        </Space>
      }
    />
  );
}

/** Title, agent, model, totals and export: apart from the messages, so a streaming answer does not re-render it. */
// The model menu loads after the page: it is a menu in the header, and the Chat page stays within its JS budget.
const ModelSwitch = lazy(() => import('./ModelSwitch').then((m) => ({ default: m.ModelSwitch })));
// Its workspace folders: a button in the header, loaded after the page like the model menu.
const WorkspaceRootsButton = lazy(() => import('../workspaceRoots/WorkspaceRootsButton').then((m) => ({ default: m.WorkspaceRootsButton })));

const ChatHeader = memo(function ChatHeader({
  title,
  agent,
  totals,
  onExport,
  model,
  extra,
}: {
  title: string;
  agent: string;
  totals: ConversationTotals;
  onExport(format: 'md' | 'json'): void;
  model: ModelSwitchProps;
  /** What the page adds beside Export (the side-panel menu). */
  extra: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <header className="chat-pane-head">
      <div className="chat-pane-title">
        <Typography.Title level={4} ellipsis style={{ margin: 0 }} data-testid="chat-title">
          {title || t('chat.untitled')}
        </Typography.Title>
        <Space size="small" wrap>
          <Tag icon={<RobotOutlined />} data-testid="chat-agent-tag">
            {agent}
          </Tag>
          <PartSuspense fallback={null}>
            <ModelSwitch {...model} />
            <WorkspaceRootsButton conversationId={model.conversationId} />
          </PartSuspense>
          <ConversationTotalsText totals={totals} />
        </Space>
      </div>
      {extra}
      <Dropdown
        menu={{
          items: [
            { key: 'md', label: t('chat.export.markdown'), onClick: () => onExport('md') },
            { key: 'json', label: t('chat.export.json'), onClick: () => onExport('json') },
          ],
        }}
      >
        <Button icon={<DownloadOutlined />} data-testid="chat-export">
          {t('chat.export.label')}
        </Button>
      </Dropdown>
    </header>
  );
});

/**
 * One conversation: its title, agent and totals, the messages (following
 * the turn live, in a virtual list loaded by windows), Stop while it
 * answers, the stopped state with Resume, and the box to write the next
 * message in. `target`: a message to open at (a search hit); `headerExtra`: shown in its header.
 */
export function ConversationPane({ conversationId, agentName, target, headerExtra }: { conversationId: string; agentName(id: string): string; target?: string; headerExtra?: ReactNode }) {
  usePrefetchConfirmationCard();
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const { state, error, loading, reload, loadOlder, loadNewer, paging } = useConversation(conversationId, { limit: WINDOW, ...(target !== undefined ? { around: target } : {}) });
  const { pending, dismiss, showInline } = usePending('toolConfirmation');
  const [stopping, setStopping] = useState(false);

  // The row (a rename from the list, or from another window) comes with the list; the messages stay as the events keep them.
  const rows = useApi('conversations.list', {}, { refreshOn: ['conversations.changed'] });
  const row = rows.data?.conversations.find((c) => c.id === conversationId);
  const models = useApi('models.list', {}, { refreshOn: ['models.changed'] });
  const agents = useApi('agents.list', {}, { refreshOn: ['agents.changed'] });
  const modelList = models.data?.models;
  const modelName = useCallback((id: string) => modelList?.find((m) => m.id === id)?.name ?? id, [modelList]);
  const running = state?.phase.kind === 'running';

  const family = familyOf(state, conversationId);
  const familyKey = family.join('\n');
  useEffect(() => showInline(familyKey.split('\n')), [familyKey, showInline]);
  const elicitations = usePending('elicitation');
  const sampling = usePending('sampling');
  // A question tied to a call of this conversation shows on that call's card; the others get their own row.
  // The calls on screen: those running now, and those of the messages loaded (after a reload a running call has no live event yet).
  const calls = state?.calls;
  const messages = state?.view.messages;
  // Each call by its conversation and id: a model repeats ids (`call_0`) across conversations, and another one's question is not on these cards.
  const shownCalls = useMemo(
    () => new Map([...(calls?.keys() ?? []), ...(messages ?? []).flatMap((m) => (m.role === 'assistant' ? m.toolCalls.map((call) => call.id) : []))].map((id) => [callKey(conversationId, id), id])),
    [calls, messages, conversationId],
  );
  // Whatever its kind: a confirmation waits on its call's card too, as the one question card (the group card is for those
  // with no call on screen: a sub-agent's, folded in its run, or a view's button's).
  const onCall = useMemo(() => [...sampling.onCall].filter(([key]) => shownCalls.has(key)), [sampling.onCall, shownCalls]);
  const onCards = useMemo(() => new Set(onCall.map(([, question]) => question.id)), [onCall]);
  const askingCalls = useMemo(() => new Set(onCall.flatMap(([key, question]) => (question.kind === 'toolConfirmation' ? [] : [shownCalls.get(key)!]))), [onCall, shownCalls]);
  const approvalCalls = useMemo(() => new Set(onCall.flatMap(([key, question]) => (question.kind === 'toolConfirmation' ? [shownCalls.get(key)!] : []))), [onCall, shownCalls]);
  const cardConfirmations = useMemo(() => new Set(onCall.flatMap(([, question]) => (question.kind === 'toolConfirmation' ? [question.id] : []))), [onCall]);
  const ours = useCallback(
    (r: { id: string; conversationId?: string }) => r.conversationId !== undefined && familyKey.split('\n').includes(r.conversationId) && !onCards.has(r.id),
    [familyKey, onCards],
  );
  const confirmations = useMemo(() => pending.filter(ours), [pending, ours]);
  const questions = useMemo(() => elicitations.pending.filter(ours), [elicitations.pending, ours]);
  const samplings = useMemo(() => sampling.pending.filter(ours), [sampling.pending, ours]);

  const run = useCallback(
    async (action: () => Promise<unknown>): Promise<boolean> => {
      try {
        await action();
        return true;
      } catch (e) {
        void message.error(errorLine(e));
        return false;
      }
    },
    [message],
  );
  const actions: MessageActions = useMemo(
    () => ({
      edit: async (messageId, text) => void (await run(() => api.call('chat.edit', { conversationId, messageId, text }))),
      regenerate: async () => void (await run(() => api.call('chat.regenerate', { conversationId }))),
      switchBranch: async (messageId) => void ((await run(() => api.call('conversations.setBranch', { id: conversationId, messageId }))) && (await reload())),
      continueCut: async () => void (await run(() => api.call('chat.continue', { conversationId }))),
    }),
    [conversationId, reload, run],
  );
  // Stable callbacks: the header and the composer re-render only when what they show changes, not with every streamed piece.
  const stop = useCallback(async () => {
    setStopping(true);
    await run(() => api.call('chat.stop', { conversationId }));
    setStopping(false);
  }, [conversationId, run]);
  // The keyboard's commands (docs/using/keyboard.md): each only when it would do something now.
  const lastUser = messages?.findLast((m) => m.role === 'user' && !m.from)?.id;
  usePageCommand('stop', running ? () => void stop() : undefined);
  usePageCommand('regenerate', !running && messages?.some((m) => m.role === 'assistant') ? () => void actions.regenerate() : undefined);
  usePageCommand('editLast', !running && lastUser ? () => requestEdit(lastUser) : undefined);
  const editLast = useCallback(() => (lastUser ? requestEdit(lastUser) : false), [lastUser]);
  // The row follows switches made anywhere (another window, the CLI); before it loads, what the conversation was loaded with.
  const switchedTo = row ? row.modelId : state?.view.conversation.modelId;
  const agentId = state?.view.conversation.agentId;
  const agentModelId = agents.data?.agents.find((a) => a.id === agentId)?.modelId ?? undefined;
  const modelSwitchProps = useMemo<ModelSwitchProps>(
    () => ({ conversationId, ...(switchedTo ? { current: switchedTo } : {}), ...(agentModelId ? { agentModelId } : {}), models: modelList ?? NO_MODELS, disabled: running }),
    [conversationId, switchedTo, agentModelId, modelList, running],
  );
  // The model that answers next, and those that read images: a warning when an image is attached to a model that cannot.
  const answering = switchedTo ?? agentModelId;
  const sight = useMemo<ImageSight>(() => {
    const model = modelList?.find((m) => m.id === answering);
    return {
      ...(model ? { model: { name: model.name, vision: model.vision } } : {}),
      seeing: (modelList ?? NO_MODELS).filter((m) => (m.kind ?? 'chat') === 'chat' && m.vision),
      onSwitch: async (modelId) => void (await run(() => api.call('chat.setModel', { conversationId, modelId }))),
    };
  }, [modelList, answering, conversationId, run]);
  // Whose MCP prompts `/` lists: stable while the conversation and its agent are.
  const slashScope = useMemo(() => (agentId ? { agentId, conversationId } : undefined), [agentId, conversationId]);
  const sendText = useCallback(
    (text: string, attachments: string[]) => run(() => api.call('chat.send', { conversationId, text, ...(attachments.length ? { attachments } : {}) })),
    [conversationId, run],
  );
  // Each message sent (typed, or a slash command's): the list goes to it and follows the answer.
  const [sent, setSent] = useState(0);
  const onSent = useCallback(() => setSent((n) => n + 1), []);
  const exportAs = useCallback(
    (format: 'md' | 'json') =>
      void run(async () => {
        const file = await api.call('conversations.export', { id: conversationId, format });
        download(file.filename, file.mimeType, file.text);
      }),
    [conversationId, run],
  );

  const reloadLatest = useCallback(() => reload(), [reload]);
  // Which tool cards and tags the user opened: kept while the conversation is open, through reloads of its rows.
  const opened = useRef(new Set<string>()).current;

  if (!state) {
    if (error) return <ApiErrorAlert error={error} onRetry={() => void reload()} />;
    return <Skeleton active paragraph={{ rows: 6 }} data-testid="chat-loading" />;
  }
  const { conversation } = state.view;
  return (
    <section className="chat-pane" data-testid="chat-pane" data-conversation={conversationId} data-phase={state.phase.kind}>
      <ChatHeader title={(row ?? conversation).title} agent={agentName(conversation.agentId)} totals={conversation.totals} onExport={exportAs} model={modelSwitchProps} extra={headerExtra} />
      {state.view.notices.length > 0 && (
        <div className="chat-notices" data-testid="chat-notices">
          {state.view.notices.map((notice) => (
            <Alert key={notice} type="warning" showIcon title={notice} data-testid="chat-notice" />
          ))}
        </div>
      )}
      <CardConfirmations.Provider value={cardConfirmations}>
        <PaneMessages
          state={state}
          actions={actions}
          confirmations={confirmations}
          onAnswered={dismiss}
          questions={questions}
          onQuestionAnswered={elicitations.dismiss}
          samplings={samplings}
          onSamplingAnswered={sampling.dismiss}
          askingCalls={askingCalls}
          approvalCalls={approvalCalls}
          agentName={agentName}
          modelName={modelName}
          paging={paging}
          loadOlder={loadOlder}
          loadNewer={loadNewer}
          reloadLatest={reloadLatest}
          opened={opened}
          target={target}
          sent={sent}
          header={state.view.messages.length === 0 && !running && reachesEnd(state) ? <Typography.Text type="secondary">{t('chat.emptyConversation')}</Typography.Text> : null}
          footer={
            <>
              <StoppedBanner state={state} onResume={async (options) => void (await run(() => api.call('chat.resume', { conversationId, ...options })))} />
              {loading && <Typography.Text type="secondary">{t('chat.loading')}</Typography.Text>}
            </>
          }
        />
      </CardConfirmations.Provider>
      <Composer
        running={running}
        stopping={stopping}
        onStop={stop}
        onSend={sendText}
        onSent={onSent}
        sight={sight}
        slash={slashScope}
        mentionAgentId={conversation.agentId}
        mentionConversationId={conversation.id}
        onEditLast={editLast}
      />
    </section>
  );
}

/**
 * Answers loaded but not shown yet (a window of older ones, as the user
 * scrolls up) are parsed while the page is idle, the nearest to what is
 * shown first, so none is parsed in the frame that scrolls it into view.
 */
function usePreparedAnswers(state: ConversationState): void {
  const seen = useRef<{ conversationId: string; ids: Set<string> }>(undefined);
  const { messages } = state.view;
  const conversationId = state.view.conversation.id;
  useEffect(() => {
    if (seen.current?.conversationId !== conversationId) seen.current = { conversationId, ids: new Set() };
    const { ids } = seen.current;
    const texts: string[] = [];
    // From the newest: a window put in front is prepared from its end, next to the rows shown.
    for (let i = messages.length - 1; i >= 0; i--) {
      const message = messages[i]!;
      if (ids.has(message.id)) continue;
      ids.add(message.id);
      if ((message.role === 'assistant' || message.role === 'summary') && message.text) texts.push(message.text);
    }
    prepareMarkdown(texts);
  }, [messages, conversationId]);
}

/** The conversation's rows in the scroller: what is loaded, whether more is before or after it. */
function PaneMessages(
  props: Parameters<typeof useMessageRows>[0] & {
    paging?: 'older' | 'newer';
    loadOlder(): Promise<void>;
    loadNewer(): Promise<void>;
    reloadLatest(): Promise<void>;
    opened: Set<string>;
    target?: string;
    sent: number;
    header: ReactNode;
    footer: ReactNode;
  },
) {
  const { state, paging, loadOlder, loadNewer, reloadLatest, opened, target, sent, header, footer } = props;
  const rows = useMessageRows(props);
  const end = reachesEnd(state);
  usePreparedAnswers(state);
  return (
    <RowContext opened={opened}>
      <ConversationScroller
        rows={rows}
        header={header}
        footer={footer}
        hasOlder={hasOlder(state)}
        reachesEnd={end}
        unloadedNewer={state.window.total - state.window.end}
        {...(paging ? { paging } : {})}
        loadOlder={() => void loadOlder()}
        loadNewer={() => void loadNewer()}
        reloadLatest={reloadLatest}
        {...(target !== undefined ? { target } : {})}
        sent={sent}
      />
    </RowContext>
  );
}
