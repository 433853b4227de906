import type { PluginRootView } from '../../../../src/shared/roots';

/** The i18n key of a plugin root's kind tag: its source, and for an extra root whether it is remembered or this run's. */
export function rootKindKey(root: Pick<PluginRootView, 'source' | 'remembered'>): string {
  if (root.source !== 'extra') return `roots.kind.${root.source}`;
  return root.remembered ? 'roots.kind.remembered' : 'roots.kind.thisRun';
}
