import { DeleteOutlined } from '@ant-design/icons';
import { Button, type ButtonProps, Empty, List, Popconfirm, Table, Tag, Typography } from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useApi } from '../../api/hooks';
import { useAction } from '../useAction';
import '../../i18n/load/knowledge';

const PAGE_SIZE = 10;

/** One file's chunks, a page at a time, each removable. */
function FileChunks({ knowledgeBaseId, file }: { knowledgeBaseId: string; file: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const chunks = useApi('knowledge.documents', { id: knowledgeBaseId, file, offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE }, { refreshOn: ['knowledge.changed'] });
  const remove = useAction(() => void chunks.reload());
  return (
    <List
      size="small"
      loading={chunks.loading}
      dataSource={chunks.data?.chunks ?? []}
      pagination={(chunks.data?.total ?? 0) > PAGE_SIZE ? { current: page, pageSize: PAGE_SIZE, total: chunks.data?.total ?? 0, onChange: setPage, size: 'small' } : false}
      renderItem={(chunk) => (
        <List.Item
          data-testid={`kb-chunk-${chunk.position}`}
          actions={[
            <Button
              key="remove"
              size="small"
              type="text"
              danger
              icon={<DeleteOutlined />}
              loading={remove.busy}
              aria-label={t('knowledge.docs.removeChunk')}
              onClick={() => void remove.run(async () => (await api.call('knowledge.removeDocument', { id: knowledgeBaseId, chunkId: chunk.id }), t('knowledge.docs.chunkRemoved')))}
            />,
          ]}
        >
          <List.Item.Meta
            title={
              <span>
                <Tag>#{chunk.position}</Tag>
                {chunk.heading ? <Typography.Text type="secondary">{chunk.heading}</Typography.Text> : null}
              </span>
            }
            description={
              <Typography.Paragraph ellipsis={{ rows: 3, expandable: true, symbol: t('knowledge.more') }} style={{ marginBottom: 0, whiteSpace: 'pre-wrap' }}>
                {chunk.text}
              </Typography.Paragraph>
            }
          />
        </List.Item>
      )}
    />
  );
}

/** A base's documents grouped by source file, with their chunk counts; a file opens to its chunks. */
export function KnowledgeDocuments({ knowledgeBaseId }: { knowledgeBaseId: string }) {
  const { t } = useTranslation();
  const documents = useApi('knowledge.documents', { id: knowledgeBaseId, limit: 1 }, { refreshOn: ['knowledge.changed'] });
  const remove = useAction(() => void documents.reload());
  const files = documents.data?.files ?? [];
  if (!documents.loading && files.length === 0) return <Empty description={t('knowledge.docs.empty')} data-testid="kb-docs-empty" />;
  return (
    <Table
      rowKey="file"
      size="small"
      loading={documents.loading && !documents.data}
      dataSource={files}
      pagination={files.length > 20 ? { pageSize: 20 } : false}
      expandable={{ expandedRowRender: (row) => <FileChunks knowledgeBaseId={knowledgeBaseId} file={row.file} /> }}
      onRow={(row) => ({ 'data-testid': `kb-file-${row.file}` }) as HTMLAttributes<HTMLElement>}
      columns={[
        { title: t('knowledge.docs.file'), dataIndex: 'file', key: 'file' },
        { title: t('knowledge.docs.chunks'), dataIndex: 'chunks', key: 'chunks', width: 120 },
        {
          title: t('knowledge.docs.actions'),
          key: 'actions',
          width: 120,
          render: (_: unknown, row) => (
            <Popconfirm
              title={t('knowledge.docs.removeFileConfirm', { file: row.file, chunks: row.chunks })}
              okText={t('knowledge.docs.removeFile')}
              cancelText={t('common.cancel')}
              okButtonProps={{ danger: true, 'data-testid': 'kb-file-remove-ok' } as ButtonProps}
              onConfirm={() =>
                remove.run(async () => t('knowledge.docs.fileRemoved', { file: row.file, chunks: (await api.call('knowledge.removeDocument', { id: knowledgeBaseId, file: row.file })).removed }))
              }
            >
              <Button size="small" danger icon={<DeleteOutlined />} data-testid={`kb-file-remove-${row.file}`}>
                {t('knowledge.docs.removeFile')}
              </Button>
            </Popconfirm>
          ),
        },
      ]}
    />
  );
}
