import type { ModelsFacade } from '../facades/models.js';
import { testEmbeddingModel } from '../knowledge/embeddingTest.js';
import { ModelService } from '../models/modelService.js';
import { ModelStore } from '../models/modelStore.js';
import type { RecordsStore } from '../store/recordsStore.js';
import type { HostBase } from './hostBase.js';
import { narrow } from './narrow.js';

export interface ModelsModule {
  readonly service: ModelService;
  readonly facade: ModelsFacade;
}

/** Model entries in the admin DB, their keys in the key store or the environment. */
export function modelsModule(base: HostBase, store: RecordsStore): ModelsModule {
  const service = new ModelService({ store: new ModelStore(store), secrets: base.secrets, env: base.env, testEmbedding: testEmbeddingModel });
  const facade = narrow(service, ['keyStore', 'list', 'ids', 'get', 'has', 'require', 'view', 'create', 'update', 'remove', 'keyFor', 'test', 'available']);
  return { service, facade };
}
