import type { ModelService } from '../models/modelService.js';

/** Model entries with their keys (the key store or the environment): the only place a key is read. */
export type ModelsFacade = Pick<ModelService, 'keyStore' | 'list' | 'ids' | 'get' | 'has' | 'require' | 'view' | 'create' | 'update' | 'remove' | 'keyFor' | 'test' | 'available'>;
