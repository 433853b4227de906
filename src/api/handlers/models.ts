import { ProviderError } from '../../core/facades/errors.js';
import { MODEL_PRESETS } from '../../shared/modelPresets.js';
import { guessModelKind, guessReasoning } from '../../shared/models.js';
import { ApiFailure } from '../apiErrors.js';
import type { HandlerContext, Handlers } from './types.js';

/** Model entries for the Models page: keys go in (to the key store) and never come back out. */
export function modelHandlers({ host, emit }: HandlerContext): Handlers<'models.list' | 'models.presets' | 'models.guess' | 'models.save' | 'models.remove' | 'models.test' | 'models.available'> {
  return {
    'models.list': async () => ({ models: await host.models.list(), keyStore: host.models.keyStore }),
    'models.presets': () => ({ presets: [...MODEL_PRESETS] }),
    'models.guess': ({ api, model }) => {
      const kind = guessModelKind(model);
      return { kind, reasoning: kind === 'chat' && guessReasoning(api, model) };
    },
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
    'models.available': async (params) => {
      try {
        return await host.models.available(params);
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        throw new ApiFailure(
          'FAILED',
          `the provider did not list its models (${error.kind}${error.status ? ` ${error.status}` : ''}): ${error.message}`,
          'type the model name yourself; check the base URL and key if you expected a list',
        );
      }
    },
  };
}
