import { Empty, Input, List, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SearchResult } from '../../../../src/shared/knowledge';
import { api, toApiError, type ApiError } from '../../api/client';
import { ActionErrorAlert } from '../../shell/ActionErrorAlert';
import '../../i18n/load/knowledge';

/** A search box over one base: the best chunks with their score and source (file, chunk number, heading). */
export function KnowledgeSearch({ knowledgeBaseId }: { knowledgeBaseId: string }) {
  const { t } = useTranslation();
  const [result, setResult] = useState<SearchResult & { note?: string }>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const search = async (query: string) => {
    if (!query.trim()) return;
    setBusy(true);
    setError(undefined);
    try {
      setResult(await api.call('knowledge.search', { id: knowledgeBaseId, query, limit: 10 }));
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Input.Search placeholder={t('knowledge.search.placeholder')} enterButton={t('knowledge.search.button')} loading={busy} onSearch={(q) => void search(q)} data-testid="kb-search" allowClear />
      {error ? <ActionErrorAlert error={error} testId="kb-search-error" /> : null}
      {result ? (
        <>
          <Typography.Text type="secondary" data-testid="kb-search-mode">
            {t(`knowledge.search.mode.${result.mode}`)}
            {result.note ? ` — ${result.note}` : ''}
          </Typography.Text>
          {result.hits.length === 0 ? (
            <Empty description={t('knowledge.search.none')} />
          ) : (
            <List
              dataSource={result.hits}
              renderItem={(hit, i) => (
                <List.Item data-testid={`kb-hit-${i}`}>
                  <List.Item.Meta
                    title={
                      <Space wrap>
                        <Tag color="blue">{hit.file}</Tag>
                        <Typography.Text type="secondary">
                          {t('knowledge.search.source', { position: hit.position, start: hit.start, end: hit.end })}
                          {hit.heading ? ` · ${hit.heading}` : ''}
                        </Typography.Text>
                        <Tag>{t('knowledge.search.score', { score: hit.score.toFixed(3) })}</Tag>
                      </Space>
                    }
                    description={
                      <Typography.Paragraph ellipsis={{ rows: 4, expandable: true, symbol: t('knowledge.more') }} style={{ marginBottom: 0, whiteSpace: 'pre-wrap' }}>
                        {hit.text}
                      </Typography.Paragraph>
                    }
                  />
                </List.Item>
              )}
            />
          )}
        </>
      ) : null}
    </Space>
  );
}
