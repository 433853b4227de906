import { InboxOutlined } from '@ant-design/icons';
import { App as AntApp, Button, Progress, Space, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { KnowledgeFileType } from '../../../../src/shared/knowledge';
import { api, errorLine } from '../../api/client';
import { newJobId, nextBatch, uploadToKnowledgeBase } from './uploadFile';
import '../../i18n/load/knowledge';

/** What the host reads (src/shared/knowledge.ts KNOWLEDGE_FILE_TYPES; the type keeps the two lists in step). */
const KNOWLEDGE_FILE_TYPES: readonly KnowledgeFileType[] = ['.txt', '.md', '.markdown', '.html', '.htm', '.pdf'];

type Job = { file: string; jobId: string; phase: 'uploading' | 'reading' | 'chunking' | 'embedding' | 'saving'; done: number; total: number; etaMs?: number };

/** Progress of the whole add: upload first (the first half), then reading, cutting and embedding (the rest). */
function percentOf(job: Job): number {
  const part = job.total > 0 ? job.done / job.total : 0;
  switch (job.phase) {
    case 'uploading':
      return Math.round(part * 40);
    case 'reading':
    case 'chunking':
      return 45;
    case 'embedding':
      return 50 + Math.round(part * 45);
    case 'saving':
      return 97;
  }
}

/**
 * Drop files or pick them: they are uploaded, read, cut into chunks and
 * (with a model) embedded, with a progress bar and a Cancel. Dropped files
 * are added in batches, each one change to the base (written once), so a
 * drop of thousands of small files costs their own work, not a write of
 * the whole index per file.
 */
export function KnowledgeUpload({ knowledgeBaseId, onAdded }: { knowledgeBaseId: string; onAdded(): void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [job, setJob] = useState<Job>();
  const [queue, setQueue] = useState<File[]>([]);

  useEffect(
    () =>
      api.on('knowledge.progress', (event) => {
        setJob((current) => (current && current.jobId === event.jobId ? { ...current, phase: event.phase, done: event.done, total: event.total, etaMs: event.etaMs } : current));
      }),
    [],
  );

  useEffect(() => {
    if (job || queue.length === 0) return;
    const [batch, rest] = nextBatch(queue);
    setQueue(rest);
    const jobId = newJobId('add');
    const label = batch.length === 1 ? batch[0]!.name : t('knowledge.upload.batch', { first: batch[0]!.name, count: batch.length - 1 });
    setJob({ file: label, jobId, phase: 'uploading', done: 0, total: batch.reduce((sum, file) => sum + file.size, 0) });
    void uploadToKnowledgeBase(knowledgeBaseId, batch, jobId, (sent) => setJob((current) => (current?.jobId === jobId && current.phase === 'uploading' ? { ...current, done: sent } : current)))
      .then((added) => {
        const chunks = added.reduce((sum, a) => sum + a.chunks, 0);
        void message.success(added.length === 1 ? t('knowledge.upload.added', { file: added[0]!.file, chunks }) : t('knowledge.upload.addedMany', { count: added.length, chunks }));
        for (const note of added.flatMap((a) => a.notes ?? [])) void message.warning(note);
        onAdded();
      })
      .catch((error: unknown) => void message.error(`${label}: ${errorLine(error)}`))
      .finally(() => setJob(undefined));
  }, [job, queue, knowledgeBaseId, message, onAdded, t]);

  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Upload.Dragger
        multiple
        accept={KNOWLEDGE_FILE_TYPES.join(',')}
        showUploadList={false}
        beforeUpload={(file, list) => {
          // Called once per file with the whole list: queue the list once, on its first file.
          if (file === list[0]) setQueue((current) => [...current, ...list]);
          return false;
        }}
        data-testid="kb-upload"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('knowledge.upload.drop')}</p>
        <p className="ant-upload-hint">{t('knowledge.upload.hint', { types: KNOWLEDGE_FILE_TYPES.join(' ') })}</p>
      </Upload.Dragger>
      {job ? (
        <Space style={{ width: '100%' }} data-testid="kb-upload-progress">
          <Typography.Text>{t(`knowledge.upload.phase.${job.phase}`, { file: job.file, done: job.done, total: job.total })}</Typography.Text>
          {job.etaMs !== undefined && job.done < job.total ? (
            <Typography.Text type="secondary" data-testid="kb-upload-eta">
              {t('knowledge.upload.eta', { seconds: Math.max(1, Math.round(job.etaMs / 1000)) })}
            </Typography.Text>
          ) : null}
          <Progress percent={percentOf(job)} size="small" style={{ minWidth: 240 }} />
          <Button size="small" onClick={() => void api.call('knowledge.cancel', { jobId: job.jobId })} data-testid="kb-upload-cancel">
            {t('common.cancel')}
          </Button>
          {queue.length ? <Typography.Text type="secondary">{t('knowledge.upload.queued', { count: queue.length })}</Typography.Text> : null}
        </Space>
      ) : null}
    </Space>
  );
}
