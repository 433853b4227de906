import * as path from 'node:path';
import { HOST_APP_ID, type DataHome } from '../dataHome.js';
import { listDefaultProviders } from './providerDefaults.js';
import { listProviderDbs } from './registrySync.js';

/**
 * Provider app ids no plugin may claim as its `providerAppId`, each with who
 * owns it (docs/rules/registry.md#provider-app-ids): the host itself, every app with its own DB
 * under the data home, every app with bundled defaults. A plugin joining one
 * of them would have its servers and prompts seen by that app without a grant.
 */
export function providerOwners(home: DataHome, defaultsDir: string): Map<string, string> {
  const owners = new Map<string, string>([[HOST_APP_ID, 'the host itself (a reserved id)']]);
  for (const appId of listProviderDbs(home)) owners.set(appId, `the app "${appId}" (its own database ${home.adminDb(appId)})`);
  for (const appId of listDefaultProviders(defaultsDir)) {
    if (!owners.has(appId)) owners.set(appId, `the app "${appId}" (its bundled defaults in ${path.join(defaultsDir, 'providers', appId)})`);
  }
  return owners;
}
