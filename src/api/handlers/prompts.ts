import type { HandlerContext, Handlers } from './types.js';

/** The Prompts page: the host's own prompts, through the core (host.registry.prompts); every change is saved and announced as a registry change. */
export function promptHandlers({ host, emit }: HandlerContext): Handlers<'prompts.list' | 'prompts.save' | 'prompts.remove' | 'prompts.setGrant'> {
  const changed = async <T>(result: T) => {
    await host.save();
    emit({ type: 'registry.changed' });
    return result;
  };
  return {
    'prompts.list': () => ({
      prompts: host.registry.prompts.list(),
      apps: host.registry
        .listApps()
        .map((a) => a.appId)
        .filter((id) => id !== host.registry.ownerAppId),
    }),
    'prompts.save': ({ create, prompt }) => changed({ prompt: host.registry.prompts.save(prompt, { create }) }),
    'prompts.remove': ({ name }) => changed(host.registry.prompts.remove(name)),
    'prompts.setGrant': ({ name, appId, granted }) => changed({ prompt: host.registry.prompts.setGrant(name, appId, granted) }),
  };
}
