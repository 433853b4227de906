import { MODEL_PRESETS } from '../../shared/modelPresets.js';
import type { HandlerContext, Handlers } from './types.js';

/** Model entries for the Models page: keys go in (to the key store) and never come back out. */
export function modelHandlers({ host, emit }: HandlerContext): Handlers<'models.list' | 'models.presets' | 'models.save' | 'models.remove' | 'models.test'> {
  return {
    'models.list': async () => ({ models: await host.models.list(), keyStore: host.models.keyStore }),
    'models.presets': () => ({ presets: [...MODEL_PRESETS] }),
    'models.save': async ({ id, model, apiKey }) => {
      const key = apiKey === undefined ? {} : { apiKey };
      const saved = id ? await host.models.update(id, model, key) : await host.models.create(model, key);
      await host.save();
      emit({ type: 'models.changed' });
      return { model: await host.models.view(saved) };
    },
    'models.remove': async ({ id }) => {
      const removed = await host.models.remove(id);
      await host.save();
      emit({ type: 'models.changed' });
      // Agents naming it now have a problem to show.
      emit({ type: 'agents.changed' });
      return { removed };
    },
    'models.test': ({ id }) => host.models.test(id),
  };
}
