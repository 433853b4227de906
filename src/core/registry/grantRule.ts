import type { RegistrySource } from '../../shared/registry.js';
import { providerPrefix } from './registryTables.js';

/**
 * The grant rule (docs/rules/registry.md#who-sees-what): the owner app sees
 * every registration, any other app its own (registered under its provider
 * id) and those it was granted; a registration marked missing is seen by no
 * one (its grants wait for it).
 *
 * `asPlugin` narrows "its own" for a caller acting for one plugin of the app
 * (its page, the agents its page made): many plugins may join one provider
 * app, and joining grants nothing, so such a caller owns only what its own
 * plugin registered; the grants to the app still count.
 */
export function grantAllows(appId: string, row: { id: string; missing?: unknown; source: RegistrySource }, ownerAppId: string, hasGrant: () => boolean, asPlugin?: string): boolean {
  if (row.missing) return false;
  if (appId === ownerAppId) return true;
  const own = row.id.startsWith(providerPrefix(appId)) && (asPlugin === undefined || (row.source.kind === 'plugin' && row.source.pluginId === asPlugin));
  return own || hasGrant();
}
