import { UnorderedListOutlined } from '@ant-design/icons';
import { Alert, App as AntApp, Button, Drawer, Empty, Select, Space, Tooltip, Typography } from 'antd';
import { lazy, useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { api, errorLine } from '../api/client';
import { useApi } from '../api/hooks';
import { Composer } from '../components/chat/Composer';
import type { ImageSight } from '../components/chat/ImageModelWarning';
import { ConversationPane } from '../components/chat/ConversationPane';
import { ConversationSidebar } from '../components/chat/ConversationSidebar';
import { useListBeside } from '../components/chat/listRoom';
import { usePageCommand } from '../shell/keys/commands';
import { usePreferences } from '../shell/preferences';
import '../i18n/load/chat';
import { PartSuspense } from '../shell/lazyPart';
// The side panel and its menu load after the page: the Chat page stays within its JS budget.
const sidePanelModule = () => import('../components/sidePanel/SidePanelHost');
const SidePanelHost = lazy(sidePanelModule);
const SidePanelButton = lazy(() => sidePanelModule().then((m) => ({ default: m.SidePanelButton })));

// What a first start does next (no model yet): loaded with it, so the Chat page stays within its JS budget.
const Welcome = lazy(() => import('../components/apps/Welcome').then((m) => ({ default: m.Welcome })));
const welcome = (
  <PartSuspense fallback={null}>
    <Welcome />
  </PartSuspense>
);

const AGENT_KEY = 'chatos.chat.agent';

/** A new conversation: pick the agent, write the first message; the conversation exists once it is sent. */
function NewConversation({ onStarted, head }: { onStarted(id: string): void; head: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { message } = AntApp.useApp();
  const agents = useApi('agents.list', {}, { refreshOn: ['agents.changed'] });
  const models = useApi('models.list', {}, { refreshOn: ['models.changed'] });
  // `?agent=ID` (an agent's "Chat" button) picks that agent; else the last one used.
  const [search] = useSearchParams();
  // Then the default agent of the settings, then the last one used.
  const { settings } = usePreferences();
  const [picked, setPicked] = useState<string | undefined>(() => search.get('agent') ?? undefined);
  const list = agents.data?.agents ?? [];
  const agent = list.find((a) => a.id === (picked ?? settings.defaultAgentId ?? localStorage.getItem(AGENT_KEY))) ?? list[0];
  // A model picked for this chat (the image warning's switch), for the agent it was picked with; sent with the first message.
  const [picks, setPicks] = useState<{ agentId: string; modelId: string }>();
  const pickedModel = picks && picks.agentId === agent?.id ? picks.modelId : undefined;
  const modelList = models.data?.models;
  const modelId = pickedModel ?? agent?.modelId ?? undefined;
  const model = modelId ? modelList?.find((m) => m.id === modelId) : undefined;
  const agentKey = agent?.id;
  const sight = useMemo<ImageSight>(
    () => ({
      ...(model ? { model: { name: model.name, vision: model.vision } } : {}),
      seeing: (modelList ?? []).filter((m) => (m.kind ?? 'chat') === 'chat' && m.vision),
      onSwitch: (id) => void (agentKey && setPicks({ agentId: agentKey, modelId: id })),
    }),
    [model, modelList, agentKey],
  );
  // `/` lists the picked agent's prompts before there is a conversation; sending one starts it.
  const agentId = agent?.id;
  const slash = useMemo(() => (agentId ? { agentId } : undefined), [agentId]);

  const send = async (text: string, attachments: string[]): Promise<boolean> => {
    if (!agent) return false;
    try {
      const started = await api.call('chat.send', { agentId: agent.id, text, ...(attachments.length ? { attachments } : {}), ...(pickedModel ? { modelId: pickedModel } : {}) });
      localStorage.setItem(AGENT_KEY, agent.id);
      onStarted(started.conversationId);
      return true;
    } catch (error) {
      void message.error(errorLine(error));
      return false;
    }
  };

  // The window opens here (the root is Chat): a first start is told what to do next here too, as on the Apps page.
  if (agents.data && list.length === 0) {
    return (
      <section className="chat-pane chat-new" data-testid="chat-new-pane">
        <div className="chat-new-body">
          {welcome}
          <Empty className="chat-empty" description={t('chat.noAgents')}>
            <Button type="primary" onClick={() => void navigate('/agents')}>
              {t('chat.toAgents')}
            </Button>
          </Empty>
        </div>
      </section>
    );
  }
  return (
    <section className="chat-pane chat-new" data-testid="chat-new-pane">
      <div className="chat-new-body">
        {welcome}
        {head}
        <Typography.Title level={3}>{t('chat.newTitle')}</Typography.Title>
        <Space wrap>
          <Typography.Text>{t('chat.agent')}</Typography.Text>
          <Select
            style={{ minWidth: 260 }}
            value={agent?.id}
            loading={agents.loading && !agents.data}
            onChange={setPicked}
            showSearch
            optionFilterProp="label"
            options={list.map((a) => ({ value: a.id, label: `${a.name} (${a.id})` }))}
            data-testid="chat-agent"
          />
          {model && <Typography.Text type="secondary">{t('chat.model', { name: model.name })}</Typography.Text>}
        </Space>
        {agent && !agent.modelId && (
          <Alert
            type="warning"
            showIcon
            style={{ marginTop: 12 }}
            title={t('chat.noModel', { name: agent.name })}
            action={
              <Button size="small" onClick={() => void navigate('/agents')}>
                {t('chat.toAgents')}
              </Button>
            }
          />
        )}
        {agent?.description && (
          <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
            {agent.description}
          </Typography.Paragraph>
        )}
      </div>
      <Composer
        running={false}
        disabled={!agent}
        onSend={send}
        // A slash command as the first message started the conversation: it opens, as a typed first message's does.
        onSent={(started) => {
          if (!started || !agent) return;
          localStorage.setItem(AGENT_KEY, agent.id);
          onStarted(started.conversationId);
        }}
        slash={slash}
        sight={sight}
        mentionAgentId={agent?.id}
        mentionConversationId={DRAFT_CONVERSATION}
      />
    </section>
  );
}

/** The conversation a chat not started yet reads resources for (the host's DRAFT_CONVERSATION_ID; a value import of src/shared would bring zod into the page). */
const DRAFT_CONVERSATION = 'chat-draft';

/**
 * Chat: the conversations on the left; on the right the one open (or a new
 * one), its messages streaming as the agent answers, its tool calls and
 * their confirmations inline; beside it the side panel with what the agent
 * works on.
 */
export default function ChatPage() {
  const { t } = useTranslation();
  const { conversationId } = useParams();
  // `?message=ID`: open the conversation at that message (a search hit).
  const [search] = useSearchParams();
  const target = search.get('message') ?? undefined;
  const navigate = useNavigate();
  const agents = useApi('agents.list', {}, { refreshOn: ['agents.changed'] });
  const byId = useMemo(() => new Map((agents.data?.agents ?? []).map((a) => [a.id, a.name])), [agents.data]);
  const agentName = useCallback((id: string) => byId.get(id) ?? id, [byId]);
  const open = (id: string, messageId?: string) => void navigate(`/chat/${encodeURIComponent(id)}${messageId ? `?message=${encodeURIComponent(messageId)}` : ''}`);
  // The list steps aside when the chat would be too narrow (listRoom.ts); a button shows it over the chat then.
  const main = useRef<HTMLDivElement>(null);
  const beside = useListBeside(main);
  const [listOpen, setListOpen] = useState(false);
  // Mod+Shift+F (or `?search=1`, the key pressed on another page): the list's search box takes the focus.
  const [searchFocus, setSearchFocus] = useState(() => (search.get('search') ? 1 : 0));
  usePageCommand('searchConversations', () => {
    if (!beside) setListOpen(true);
    setSearchFocus((n) => n + 1);
  });
  const sidebar = (
    <ConversationSidebar
      focusSearch={searchFocus}
      selected={conversationId}
      onSelect={(id, messageId) => {
        setListOpen(false);
        open(id, messageId);
      }}
      onNew={() => {
        setListOpen(false);
        void navigate('/chat');
      }}
    />
  );
  const showList = beside ? null : (
    <Tooltip title={t('chat.list.show')}>
      <Button icon={<UnorderedListOutlined />} onClick={() => setListOpen(true)} aria-label={t('chat.list.show')} data-testid="chat-list-show" />
    </Tooltip>
  );
  const menu = conversationId ? (
    <>
      {showList}
      <PartSuspense fallback={null}>
        <SidePanelButton conversationId={conversationId} />
      </PartSuspense>
    </>
  ) : null;
  return (
    <div className="chat-page" data-testid="page-chat" data-list={beside ? 'beside' : 'aside'}>
      {beside ? (
        sidebar
      ) : (
        <Drawer open={listOpen} onClose={() => setListOpen(false)} placement="left" size={300} closable={false} styles={{ body: { padding: 0 } }} data-testid="chat-list-drawer">
          {sidebar}
        </Drawer>
      )}
      <div className="chat-main" ref={main}>
        {conversationId ? (
          <ConversationPane key={conversationId} conversationId={conversationId} agentName={agentName} headerExtra={menu} {...(target ? { target } : {})} />
        ) : (
          <NewConversation onStarted={(id) => open(id)} head={showList} />
        )}
      </div>
      {/* Whichever conversation's agent builds on the Canvas, its panel opens on it; the open one's shows here. */}
      <PartSuspense fallback={null}>
        <SidePanelHost conversationId={conversationId} />
      </PartSuspense>
    </div>
  );
}
