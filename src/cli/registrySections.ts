/** What `chatos registry [section]` shows, one or all. */
export const SECTIONS = ['apps', 'servers', 'prompts', 'grants'] as const;
export type Section = (typeof SECTIONS)[number];
