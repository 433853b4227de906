import type { HandlerContext, Handlers } from './types.js';

/** The Prompts page: the host's own prompts, through the core (host.hostPrompts); every change is saved and announced as a registry change. */
export function promptHandlers({ host, emit }: HandlerContext): Handlers<'prompts.list' | 'prompts.save' | 'prompts.remove' | 'prompts.setGrant'> {
  const changed = async <T>(result: T) => {
    await host.save();
    emit({ type: 'registry.changed' });
    return result;
  };
  return {
    'prompts.list': () => ({
      prompts: host.hostPrompts.list(),
      apps: host.registry
        .listApps()
        .map((a) => a.appId)
        .filter((id) => id !== host.registry.ownerAppId),
    }),
    'prompts.save': ({ create, prompt }) => changed({ prompt: host.hostPrompts.save(prompt, { create }) }),
    'prompts.remove': ({ name }) => changed(host.hostPrompts.remove(name)),
    'prompts.setGrant': ({ name, appId, granted }) => changed({ prompt: host.hostPrompts.setGrant(name, appId, granted) }),
  };
}
