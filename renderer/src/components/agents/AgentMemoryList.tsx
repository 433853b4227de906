import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { App as AntApp, Button, Empty, Input, List, Popconfirm, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MemoryHit } from '../../../../src/shared/memory';
import { api, toApiError } from '../../api/client';
import { useApi } from '../../api/hooks';
import { hostText } from '../../i18n/hostText';
import { useProblemTexts } from '../../i18n/problemTexts';
import { formatAgo } from '../servers/time';
import '../../i18n/load/agents';

/** What the window says for a refused change: the host's coded message in the user's language, then its fix. */
function refusalLine(error: unknown): string {
  const said = hostText(toApiError(error));
  return said.hint ? `${said.message} ${said.hint}` : said.message;
}

/**
 * An agent's stored memories (docs/using/agents.md#memory) on its Memory
 * tab: searched by words, added, edited and forgotten by the user. They are
 * the memories of the agent as saved (its own, or its host app's when it
 * shares), whether its memory is on or off.
 */
export function AgentMemoryList({ agentId, query: given, agentName }: { agentId: string; query?: string; agentName?(id: string): string }) {
  const { t, i18n } = useTranslation();
  const { message } = AntApp.useApp();
  const [own, setQuery] = useState('');
  // The Memory page searches every agent's memories with one box: its query then, and no box of the list's own.
  const query = given ?? own;
  const listing = useApi('memory.list', { agentId, ...(query ? { query } : {}) }, { refreshOn: ['agents.changed'] });
  useProblemTexts(listing.error !== undefined);
  const [editing, setEditing] = useState<{ id: string; text: string }>();
  const [adding, setAdding] = useState('');
  const [busy, setBusy] = useState<string>();

  /** Runs one change, says it went through (or why not), and reloads the list. */
  const change = async (key: string, run: () => Promise<unknown>, done: string) => {
    setBusy(key);
    try {
      await run();
      void message.success(done);
      await listing.reload();
      return true;
    } catch (error) {
      void message.error(refusalLine(error));
      return false;
    } finally {
      setBusy(undefined);
    }
  };

  /** A text longer than the host keeps is refused here, with the limit, before it is sent (the host refuses it too). */
  const tooLong = (text: string) => {
    const max = listing.data?.maxChars;
    if (max === undefined || text.trim().length <= max) return false;
    void message.error(t('agents.memory.tooLong', { max, count: text.trim().length }));
    return true;
  };
  /** Who wrote a memory, as the list says it: you, or the agent's name. */
  const author = (by: string) => (by === 'user' ? t('agents.memory.byUser') : (agentName?.(by) ?? by));

  const save = async (memory: MemoryHit, text: string) => {
    if (tooLong(text)) return;
    if (await change(memory.id, () => api.call('memory.update', { agentId, id: memory.id, text }), t('agents.memory.saved'))) setEditing(undefined);
  };
  const add = async () => {
    if (tooLong(adding)) return;
    if (await change('add', () => api.call('memory.remember', { agentId, text: adding }), t('agents.memory.added'))) setAdding('');
  };

  const data = listing.data;
  return (
    <div data-testid="agent-memory">
      {data && (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }} data-testid="agent-memory-summary">
          {t(data.shared ? 'agents.memory.summaryShared' : 'agents.memory.summaryOwn', { count: data.total })}
        </Typography.Paragraph>
      )}
      <Space orientation="vertical" style={{ width: '100%' }}>
        {given === undefined && <Input.Search allowClear placeholder={t('agents.memory.search')} onSearch={(value) => setQuery(value.trim())} data-testid="agent-memory-search" />}
        {listing.error && <Typography.Text type="danger">{hostText(listing.error).message}</Typography.Text>}
        {data?.searchedBy && (
          <Typography.Text type="secondary" data-testid="agent-memory-searched-by" data-mode={data.searchedBy}>
            {t(data.searchedBy === 'meaning' ? 'agents.memory.byMeaning' : 'agents.memory.byWords')}
            {data.note ? ` (${data.note})` : ''}
          </Typography.Text>
        )}
        {data && data.memories.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={query ? t('agents.memory.noMatch') : t('agents.memory.none')} />
        ) : (
          <List
            size="small"
            bordered
            // Rows keep their identity when an edit moves a memory to the top.
            rowKey="id"
            loading={listing.loading && !data}
            dataSource={data?.memories ?? []}
            renderItem={(memory) => (
              <List.Item
                data-testid={`agent-memory-${memory.id}`}
                actions={
                  editing?.id === memory.id
                    ? []
                    : [
                        <Button key="edit" size="small" icon={<EditOutlined />} onClick={() => setEditing({ id: memory.id, text: memory.text })} data-testid={`agent-memory-edit-${memory.id}`}>
                          {t('agents.memory.edit')}
                        </Button>,
                        <Popconfirm
                          key="forget"
                          title={t('agents.memory.forgetConfirm')}
                          okText={t('agents.memory.forget')}
                          cancelText={t('agents.editor.cancel')}
                          onConfirm={() => change(memory.id, () => api.call('memory.forget', { agentId, id: memory.id }), t('agents.memory.forgotten'))}
                        >
                          <Button size="small" danger icon={<DeleteOutlined />} loading={busy === memory.id} data-testid={`agent-memory-forget-${memory.id}`}>
                            {t('agents.memory.forget')}
                          </Button>
                        </Popconfirm>,
                      ]
                }
              >
                {editing?.id === memory.id ? (
                  <Space orientation="vertical" style={{ width: '100%' }}>
                    <Input.TextArea
                      autoSize={{ minRows: 2, maxRows: 8 }}
                      value={editing.text}
                      onChange={(e) => setEditing({ id: memory.id, text: e.target.value })}
                      data-testid="agent-memory-edit-text"
                    />
                    <Space>
                      <Button type="primary" size="small" loading={busy === memory.id} onClick={() => void save(memory, editing.text)} data-testid="agent-memory-edit-save">
                        {t('agents.memory.save')}
                      </Button>
                      <Button size="small" onClick={() => setEditing(undefined)}>
                        {t('agents.editor.cancel')}
                      </Button>
                    </Space>
                  </Space>
                ) : (
                  <List.Item.Meta
                    title={<Typography.Text style={{ whiteSpace: 'pre-wrap', fontWeight: 'normal' }}>{memory.text}</Typography.Text>}
                    description={
                      <span data-testid={`agent-memory-meta-${memory.id}`}>
                        {memory.changedBy
                          ? t('agents.memory.metaChanged', { when: formatAgo(Date.parse(memory.updatedAt), i18n.language), by: author(memory.changedBy), first: author(memory.by) })
                          : t('agents.memory.meta', { when: formatAgo(Date.parse(memory.updatedAt), i18n.language), by: author(memory.by) })}
                      </span>
                    }
                  />
                )}
              </List.Item>
            )}
          />
        )}
        <Space.Compact style={{ width: '100%' }}>
          <Input
            value={adding}
            onChange={(e) => setAdding(e.target.value)}
            onPressEnter={() => adding.trim() && void add()}
            placeholder={t('agents.memory.addPlaceholder')}
            data-testid="agent-memory-add-text"
          />
          <Button type="primary" disabled={!adding.trim()} loading={busy === 'add'} onClick={() => void add()} data-testid="agent-memory-add">
            {t('agents.memory.add')}
          </Button>
        </Space.Compact>
      </Space>
    </div>
  );
}
