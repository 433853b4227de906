import type { ServerDefinition } from '../../../shared/mcp.js';
import { readStoredValues, resolveEnvValues, type ReadStoredValue } from '../config/envValues.js';
import type { OAuthTarget } from './oauthService.js';
import { OAuthStepError } from './oauthStepError.js';

/**
 * A streamable_http server as sign-in sees it, with its `oauth:` client
 * secret read (`{ secret: NAME }` from the key store, `{ env: NAME }` from
 * the host) only now, when it is used.
 */
export async function oauthTargetOf(definition: ServerDefinition, hostEnv: NodeJS.ProcessEnv, readStoredValue: ReadStoredValue | undefined): Promise<OAuthTarget> {
  if (definition.transport.kind !== 'streamable_http') throw new Error(`server "${definition.id}" is not a remote (streamable_http) server`);
  const oauth = definition.transport.oauth;
  let clientSecret: string | undefined;
  if (oauth?.clientSecret !== undefined) {
    const values = { client_secret: oauth.clientSecret };
    const resolved = resolveEnvValues(values, hostEnv, definition.id, await readStoredValues(values, readStoredValue));
    if (!resolved.ok)
      throw new OAuthStepError('registration', `${resolved.message} (its oauth client_secret)`, "enter the client secret again in the server's settings, or set the variable, then sign in again");
    clientSecret = resolved.values.client_secret;
  }
  return {
    serverId: definition.id,
    serverUrl: definition.transport.url,
    client: {
      ...(oauth?.clientId ? { clientId: oauth.clientId } : {}),
      ...(clientSecret !== undefined ? { clientSecret } : {}),
      ...(oauth?.clientMetadataUrl ? { clientMetadataUrl: oauth.clientMetadataUrl } : {}),
    },
  };
}
