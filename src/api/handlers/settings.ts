import { MAX_MEMORIES, MAX_MEMORY_CHARS, MAX_MEMORY_QUERY_CHARS } from '../../shared/memory.js';
import type { SettingsView } from '../../shared/settings.js';
import type { HandlerContext, Handlers } from './types.js';

/** The Settings page's methods (docs/using/settings.md): the core checks every change; each one tells every window. */
export function settingsHandlers({ host, emit, version }: HandlerContext): Handlers<'settings.get' | 'settings.update'> {
  const view = (): SettingsView => ({
    settings: host.settings.get(),
    home: host.setup.home.root,
    version,
    limits: { memoryChars: MAX_MEMORY_CHARS, memoriesPerAgent: MAX_MEMORIES, memoryQueryChars: MAX_MEMORY_QUERY_CHARS },
  });
  return {
    'settings.get': view,
    'settings.update': ({ patch }) => {
      host.settings.update(patch);
      emit({ type: 'settings.changed' });
      return view();
    },
  };
}
