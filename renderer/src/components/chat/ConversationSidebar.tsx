import { DeleteOutlined, EditOutlined, LoadingOutlined, PlusOutlined, SearchOutlined, WarningOutlined } from '@ant-design/icons';
import { App as AntApp, Button, type ButtonProps, Empty, Input, type InputRef, Modal, Popconfirm, Skeleton, Tooltip, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Conversation, SearchHit } from '../../../../src/shared/chat';
import { api, errorLine } from '../../api/client';
import { useApi } from '../../api/hooks';
import { formatAgo, useNow } from '../servers/time';
import '../../i18n/load/chat';

const SEARCH_DELAY_MS = 250;

/** Hits for the search text, asked at most once per pause in typing; undefined while the box is empty. */
function useSearch(text: string): { hits?: SearchHit[]; searching: boolean } {
  const [state, setState] = useState<{ hits?: SearchHit[]; searching: boolean }>({ searching: false });
  useEffect(() => {
    const query = text.trim();
    if (!query) return setState({ searching: false });
    let current = true;
    setState((s) => ({ ...s, searching: true }));
    const timer = setTimeout(() => {
      api.call('conversations.search', { text: query, limit: 50 }).then(
        (result) => current && setState({ hits: result.hits, searching: false }),
        () => current && setState({ hits: [], searching: false }),
      );
    }, SEARCH_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text]);
  return state;
}

function StatusIcon({ conversation }: { conversation: Conversation }) {
  const { t } = useTranslation();
  if (conversation.status.kind === 'running') return <LoadingOutlined className="conversation-status" aria-label={t('chat.list.running')} />;
  if (conversation.status.kind === 'stopped' && conversation.status.stop.kind !== 'user')
    return (
      <Tooltip title={conversation.status.stop.message}>
        <WarningOutlined className="conversation-status conversation-status-stopped" aria-label={t('chat.list.stopped')} />
      </Tooltip>
    );
  return null;
}

/**
 * The conversations, newest activity first: open one, start a new one,
 * rename or delete one, and search through every conversation's text.
 */
export function ConversationSidebar({ selected, onSelect, onNew, focusSearch = 0 }: { selected?: string; onSelect(id: string, messageId?: string): void; onNew(): void; focusSearch?: number }) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  const { message } = AntApp.useApp();
  const conversations = useApi('conversations.list', {}, { refreshOn: ['conversations.changed'] });
  const [query, setQuery] = useState('');
  const search = useSearch(query);
  const [renaming, setRenaming] = useState<{ id: string; title: string }>();
  // Each time `focusSearch` counts up (a shortcut asked for the search), the box takes the focus.
  const searchBox = useRef<InputRef>(null);
  useEffect(() => {
    if (focusSearch) searchBox.current?.focus();
  }, [focusSearch]);

  const rename = async () => {
    if (!renaming) return;
    try {
      await api.call('conversations.rename', { id: renaming.id, title: renaming.title });
      setRenaming(undefined);
      await conversations.reload();
    } catch (error) {
      void message.error(errorLine(error));
    }
  };

  const remove = async (conversation: Conversation) => {
    try {
      await api.call('conversations.delete', { id: conversation.id });
      void message.success(t('chat.list.deleted', { title: conversation.title || t('chat.untitled') }));
      if (conversation.id === selected) onNew();
      await conversations.reload();
    } catch (error) {
      void message.error(errorLine(error));
    }
  };

  const list = conversations.data?.conversations ?? [];
  let body;
  if (search.hits !== undefined || search.searching) {
    body =
      search.searching && !search.hits ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : search.hits && search.hits.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('chat.search.none')} />
      ) : (
        <ul className="conversation-list" data-testid="search-hits">
          {search.hits?.map((hit, i) => (
            <li key={`${hit.conversationId}-${hit.messageId ?? 'title'}-${i}`}>
              <button
                type="button"
                className="conversation-item"
                onClick={() => onSelect(hit.conversationId, hit.messageId)}
                data-testid="search-hit"
                data-conversation={hit.conversationId}
                data-hit-message={hit.messageId}
              >
                <span className="conversation-title" title={hit.title || undefined}>
                  <span className="conversation-title-text">{hit.title || t('chat.untitled')}</span>
                </span>
                <span className="conversation-snippet">{hit.snippet}</span>
              </button>
            </li>
          ))}
        </ul>
      );
  } else if (!conversations.data && conversations.loading) {
    body = <Skeleton active paragraph={{ rows: 5 }} />;
  } else if (list.length === 0) {
    body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('chat.list.empty')} />;
  } else {
    body = (
      <ul className="conversation-list" data-testid="conversation-list">
        {list.map((conversation) => (
          <li key={conversation.id} className={conversation.id === selected ? 'conversation-selected' : undefined}>
            <button
              type="button"
              className="conversation-item"
              onClick={() => onSelect(conversation.id)}
              data-testid={`conversation-${conversation.id}`}
              aria-current={conversation.id === selected ? 'page' : undefined}
            >
              {/* A long title is cut with an ellipsis; the whole of it shows on hover. */}
              <span className="conversation-title" title={conversation.title || undefined} data-testid="conversation-title">
                <StatusIcon conversation={conversation} />
                <span className="conversation-title-text">{conversation.title || t('chat.untitled')}</span>
              </span>
              <span className="conversation-meta">{formatAgo(conversation.updatedAt, i18n.language, now)}</span>
            </button>
            <span className="conversation-actions">
              <Tooltip title={t('chat.list.rename')}>
                <Button
                  size="small"
                  type="text"
                  icon={<EditOutlined />}
                  onClick={() => setRenaming({ id: conversation.id, title: conversation.title })}
                  aria-label={t('chat.list.rename')}
                  data-testid={`conversation-rename-${conversation.id}`}
                />
              </Tooltip>
              <Popconfirm
                title={t('chat.list.deleteConfirm', { title: conversation.title || t('chat.untitled') })}
                description={t('chat.list.deleteHint')}
                okText={t('chat.list.delete')}
                cancelText={t('common.cancel')}
                okButtonProps={{ danger: true, 'data-testid': 'conversation-delete-ok' } as ButtonProps}
                onConfirm={() => remove(conversation)}
              >
                <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={t('chat.list.delete')} data-testid={`conversation-delete-${conversation.id}`} />
              </Popconfirm>
            </span>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <aside className="chat-sidebar" data-testid="chat-sidebar">
      <div className="chat-sidebar-head">
        <Button type="primary" block icon={<PlusOutlined />} onClick={onNew} data-testid="chat-new">
          {t('chat.new')}
        </Button>
        <Input ref={searchBox} allowClear prefix={<SearchOutlined />} placeholder={t('chat.search.placeholder')} value={query} onChange={(e) => setQuery(e.target.value)} data-testid="chat-search" />
      </div>
      <div className="chat-sidebar-body">{body}</div>
      {conversations.error && <Typography.Text type="danger">{conversations.error.message}</Typography.Text>}
      <Modal
        open={renaming !== undefined}
        title={t('chat.list.renameTitle')}
        okText={t('chat.list.rename')}
        cancelText={t('common.cancel')}
        onOk={() => void rename()}
        onCancel={() => setRenaming(undefined)}
        okButtonProps={{ 'data-testid': 'conversation-rename-ok' } as ButtonProps}
        destroyOnHidden
      >
        <Input
          value={renaming?.title ?? ''}
          maxLength={500}
          onChange={(e) => setRenaming((r) => (r ? { ...r, title: e.target.value } : r))}
          onPressEnter={() => void rename()}
          data-testid="conversation-title-input"
          autoFocus
        />
      </Modal>
    </aside>
  );
}
