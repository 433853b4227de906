import type { KnowledgeFacade } from '../facades/knowledge.js';
import { KnowledgeService } from '../knowledge/knowledgeService.js';
import type { ModelService } from '../models/modelService.js';
import type { HostBase } from './hostBase.js';
import { narrow } from './narrow.js';

export interface KnowledgeModule {
  readonly service: KnowledgeService;
  readonly facade: KnowledgeFacade;
}

/** Knowledge bases, one folder each under the data home, embedded through the model entries. */
export function knowledgeModule(base: HostBase, models: ModelService): KnowledgeModule {
  const service = new KnowledgeService({ dir: base.home.knowledgeDir, models, now: () => base.clock.now(), logger: base.logger, secrets: base.secrets });
  const facade = narrow(service, [
    'list',
    'get',
    'create',
    'update',
    'reembed',
    'delete',
    'addText',
    'addFile',
    'addFiles',
    'addUploads',
    'addBytes',
    'listDocuments',
    'deleteChunk',
    'deleteFile',
    'search',
  ]);
  return { service, facade };
}
