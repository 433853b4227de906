/**
 * What ChatOS reads from a token without verifying it: an access token that
 * is a JWT may name its audience (`aud`), and an OpenID `id_token` names the
 * account. Neither is trusted for access (the server decides that); the
 * audience is only checked so that a token the authorization server meant
 * for another resource is refused instead of being sent to this server.
 */

const MAX_JWT_CHARS = 16_384;

/** The claims of a JWT, or undefined when the text is not one (an opaque token). */
export function jwtClaims(token: string | undefined): Record<string, unknown> | undefined {
  if (!token || token.length > MAX_JWT_CHARS) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    return claims !== null && typeof claims === 'object' && !Array.isArray(claims) ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const withoutSlash = (value: string) => value.replace(/\/+$/, '');

/**
 * Whether a JWT access token's `aud` names another resource than this
 * server. An opaque token, or one without `aud`, cannot be judged and is
 * taken. A token whose `aud` names this server's url, its resource
 * indicator or its origin is this server's.
 */
export function audienceMismatch(accessToken: string, accepted: readonly string[]): string | undefined {
  const claims = jwtClaims(accessToken);
  if (!claims || !Object.hasOwn(claims, 'aud')) return undefined;
  const aud = claims.aud;
  const audiences = (Array.isArray(aud) ? aud : [aud]).filter((value): value is string => typeof value === 'string');
  if (audiences.length === 0) return undefined;
  const ok = new Set(accepted.map(withoutSlash));
  return audiences.some((value) => ok.has(withoutSlash(value))) ? undefined : audiences.join(', ');
}

/** Who signed in, from an OpenID id_token: email, preferred_username, name, else subject. */
export function accountOf(idToken: string | undefined): string | undefined {
  const claims = jwtClaims(idToken);
  if (!claims) return undefined;
  for (const key of ['email', 'preferred_username', 'name', 'sub']) {
    const value = Object.hasOwn(claims, key) ? claims[key] : undefined;
    if (typeof value === 'string' && value.length > 0 && value.length <= 200) return value;
  }
  return undefined;
}
