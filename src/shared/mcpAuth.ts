import { z } from 'zod';

/**
 * Where a remote MCP server's sign-in (OAuth) stands, for its card in the
 * window, `chatos mcp list` and the conversation's sign-in card. Never
 * carries a token, a code or a client secret.
 */
export const SignInStateSchema = z.discriminatedUnion('kind', [
  /** Nothing stored and the server never asked: it may not need sign-in. */
  z.object({ kind: z.literal('none') }),
  /** The server answered 401: the user has to sign in. */
  z.object({ kind: z.literal('needed'), scope: z.string().optional() }),
  z.object({
    kind: z.literal('signed-in'),
    /** Who, when the authorization server said (an OpenID id_token's email, name or subject). */
    account: z.string().optional(),
    /** When the access token expires (ms since the epoch); a refresh token renews it without the user. */
    expiresAt: z.number().optional(),
    scope: z.string().optional(),
    refreshable: z.boolean(),
  }),
  /** A token was stored but can no longer be used (expired without refresh, refused, or more permissions needed). */
  z.object({ kind: z.literal('again'), reason: z.string(), scope: z.string().optional() }),
]);
export type SignInState = z.infer<typeof SignInStateSchema>;
