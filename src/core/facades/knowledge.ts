import type { KnowledgeService } from '../knowledge/knowledgeService.js';

export type { IngestOptions } from '../knowledge/knowledgeService.js';
export { MAX_FILE_BYTES } from '../knowledge/documentText.js';

/** Knowledge bases: documents, chunks, embeddings (through model entries) and hybrid search; one folder each under the data home. */
export type KnowledgeFacade = Pick<
  KnowledgeService,
  'list' | 'get' | 'create' | 'update' | 'reembed' | 'delete' | 'addText' | 'addFile' | 'addFiles' | 'addUploads' | 'addBytes' | 'listDocuments' | 'deleteChunk' | 'deleteFile' | 'search'
>;
