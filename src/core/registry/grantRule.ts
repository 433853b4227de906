import { providerPrefix } from './registryTables.js';

/**
 * The grant rule: the owner app sees every registration, any other app its
 * own (registered under its provider id) and those it was granted; a
 * registration marked missing is seen by no one (its grants wait for it).
 */
export function grantAllows(appId: string, row: { id: string; missing?: unknown }, ownerAppId: string, hasGrant: () => boolean): boolean {
  if (row.missing) return false;
  return appId === ownerAppId || row.id.startsWith(providerPrefix(appId)) || hasGrant();
}
