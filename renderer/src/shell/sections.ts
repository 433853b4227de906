/** The side menu's pages, in its order; the command palette lists the same (each labelled `common.nav.<key>`, at `/<key>`). */
export const SECTION_KEYS = [
  'chat',
  'apps',
  'agents',
  'memory',
  'models',
  'registry',
  'servers',
  'catalog',
  'prompts',
  'knowledge',
  'playground',
  'history',
  'problems',
  'diagnostics',
  'settings',
] as const;

export type SectionKey = (typeof SECTION_KEYS)[number];
