/**
 * The ES module resolve hook registered by host-modules.mjs. A bare
 * `@modelcontextprotocol/sdk[/…]` or `zod[/…]` that the plugin's own folders
 * do not provide is resolved as if imported from this file, that is from
 * the host's node_modules; every other specifier resolves as Node would.
 */
import { isHostModule } from './host-modules-names.mjs';

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !isHostModule(specifier)) throw error;
    return nextResolve(specifier, { ...context, parentURL: import.meta.url });
  }
}
