import { createHash } from 'node:crypto';
import { z } from 'zod';
import { OAuthClientInformationFullSchema, OAuthClientInformationSchema, OAuthTokensSchema, type OAuthClientInformationMixed, type OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/**
 * What ChatOS keeps for one remote server's sign-in, as one value in the
 * host's key store (never in mcp.yaml): the client registration and the
 * tokens, both stamped by the SDK with the authorization server that issued
 * them, and the url they were obtained for. A record whose url is not the
 * server's current url is not used: a token is never sent to another url.
 */
export const OAuthRecordSchema = z.object({
  version: z.literal(1),
  serverId: z.string(),
  serverUrl: z.string(),
  /** The SDK's client information (a registration, or a client ID metadata document url). */
  client: z.unknown().optional(),
  /** The SDK's tokens, with its `issuer` stamp. */
  tokens: z.unknown().optional(),
  /** When the tokens were obtained (ms), for `expires_in`. */
  obtainedAt: z.number().optional(),
  account: z.string().optional(),
  /** What the server last asked for in WWW-Authenticate (401, or 403 insufficient_scope). */
  challenge: z.object({ scope: z.string().optional(), resourceMetadataUrl: z.string().optional(), stepUp: z.boolean().optional() }).optional(),
  /** The last permissions asked for with 403 insufficient_scope, and how many sign-ins for them were made (the step-up retry limit). */
  stepUp: z.object({ scope: z.string().optional(), attempts: z.number().int().nonnegative() }).optional(),
  /** Set when stored tokens stopped working and the user must sign in again. */
  again: z.string().optional(),
});
export type OAuthRecord = z.infer<typeof OAuthRecordSchema>;

/** The key-store name of a server's record: a hash, since server ids (`chatos::name`) are not secret names. */
export const oauthSecretName = (serverId: string) => `oauth:${createHash('sha256').update(serverId).digest('hex').slice(0, 40)}`;

export function tokensOf(record: OAuthRecord | undefined): OAuthTokens | undefined {
  const parsed = OAuthTokensSchema.safeParse(record?.tokens);
  return parsed.success ? parsed.data : undefined;
}

export function clientOf(record: OAuthRecord | undefined): OAuthClientInformationMixed | undefined {
  if (record?.client === undefined) return undefined;
  const full = OAuthClientInformationFullSchema.safeParse(record.client);
  if (full.success) return full.data;
  const plain = OAuthClientInformationSchema.safeParse(record.client);
  return plain.success ? plain.data : undefined;
}

/** When the access token expires, if the authorization server said (`expires_in`). */
export function expiresAtOf(record: OAuthRecord | undefined): number | undefined {
  const tokens = tokensOf(record);
  return tokens?.expires_in !== undefined && record?.obtainedAt !== undefined ? record.obtainedAt + tokens.expires_in * 1000 : undefined;
}
