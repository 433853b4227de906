import { matchPath } from 'react-router';

/** Every page of the host UI; a UI app may navigate only to these. */
export const ROUTE_PATTERNS = [
  '/chat',
  '/chat/:conversationId',
  '/apps',
  '/apps/:pluginId/:appId',
  '/agents',
  '/memory',
  '/models',
  '/registry',
  '/servers',
  '/servers/:serverId',
  '/catalog',
  '/settings',
  '/settings/mcp-assistant/:serverId',
  '/prompts',
  '/knowledge',
  '/playground',
  '/problems',
  '/history',
  '/diagnostics',
] as const;

/** True for `/servers?tab=builtin`, false for `/nowhere` or `https://…`. */
export function isKnownRoute(path: string): boolean {
  if (!path.startsWith('/') || path.startsWith('//')) return false;
  const pathname = path.split(/[?#]/)[0] ?? '';
  return ROUTE_PATTERNS.some((pattern) => matchPath({ path: pattern, end: true }, pathname) !== null);
}
