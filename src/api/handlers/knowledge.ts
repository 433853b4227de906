import { MAX_FILE_BYTES, type IngestOptions } from '../../core/facades/knowledge.js';
import { ApiFailure } from '../apiErrors.js';
import { StagedUploads } from './stagedUploads.js';
import type { HandlerContext, Handlers } from './types.js';

type KnowledgeMethod =
  | 'knowledge.list'
  | 'knowledge.create'
  | 'knowledge.update'
  | 'knowledge.delete'
  | 'knowledge.documents'
  | 'knowledge.search'
  | 'knowledge.uploadPart'
  | 'knowledge.addUpload'
  | 'knowledge.addUploads'
  | 'knowledge.addText'
  | 'knowledge.cancel'
  | 'knowledge.removeDocument';

/** The Knowledge page: knowledge bases through the core (host.knowledge); adds and re-embeds report progress and can be cancelled by their job id. */
export function knowledgeHandlers({ host, emit }: HandlerContext): Handlers<KnowledgeMethod> {
  const uploads = new StagedUploads({
    maxFileBytes: MAX_FILE_BYTES,
    tooLarge: () => new ApiFailure('INVALID', `a file for a knowledge base holds at most ${MAX_FILE_BYTES} bytes`, 'split it into smaller files'),
  });
  const jobs = new Map<string, AbortController>();
  const changed = <T>(knowledgeBaseId: string, result: T): T => {
    emit({ type: 'knowledge.changed', knowledgeBaseId });
    return result;
  };
  /** Runs `work` as job `jobId`: cancellable while it runs, its progress sent as events. */
  const job = async <T>(knowledgeBaseId: string, jobId: string | undefined, work: (options: IngestOptions) => Promise<T>): Promise<T> => {
    const controller = new AbortController();
    if (jobId) jobs.set(jobId, controller);
    try {
      return await work({ signal: controller.signal, onProgress: (progress) => jobId && emit({ type: 'knowledge.progress', jobId, knowledgeBaseId, ...progress }) });
    } finally {
      if (jobId && jobs.get(jobId) === controller) jobs.delete(jobId);
    }
  };
  const knowledge = () => host.knowledge;
  return {
    'knowledge.list': async () => ({ knowledgeBases: await knowledge().list() }),
    'knowledge.create': async ({ base }) => {
      const created = await knowledge().create(base);
      return changed(created.id, { knowledgeBase: created });
    },
    'knowledge.update': async ({ id, patch, jobId }) => changed(id, { knowledgeBase: await job(id, jobId, (options) => knowledge().update(id, patch, options)) }),
    'knowledge.delete': async ({ id }) => changed(id, { deleted: (await knowledge().delete(id)).id }),
    'knowledge.documents': ({ id, file, offset, limit }) => knowledge().listDocuments(id, { ...(file !== undefined ? { file } : {}), offset, limit }),
    'knowledge.search': ({ id, query, limit }) => knowledge().search(id, query, { limit }),
    'knowledge.uploadPart': ({ uploadId, offset, data }) => ({ received: uploads.append(uploadId, offset, data) }),
    'knowledge.addUpload': async ({ id, uploadId, name, jobId }) => {
      const bytes = uploads.take(uploadId);
      return changed(id, await job(id, jobId, (options) => knowledge().addBytes(id, name, bytes, options)));
    },
    'knowledge.addUploads': async ({ id, uploads: files, jobId }) => {
      const bytes = uploads.takeAll(files.map((file) => file.uploadId));
      const added = await job(id, jobId, (options) =>
        knowledge().addUploads(
          id,
          files.map((file, i) => ({ name: file.name, bytes: bytes[i]! })),
          options,
        ),
      );
      return changed(id, { added });
    },
    'knowledge.addText': async ({ id, title, text, jobId }) => changed(id, await job(id, jobId, (options) => knowledge().addText(id, text, title, options))),
    'knowledge.cancel': ({ jobId }) => {
      const controller = jobs.get(jobId);
      controller?.abort();
      return { cancelled: controller !== undefined };
    },
    'knowledge.removeDocument': async ({ id, file, chunkId }) =>
      changed(id, { removed: file !== undefined ? await knowledge().deleteFile(id, file) : (await knowledge().deleteChunk(id, chunkId!), 1) }),
  };
}
