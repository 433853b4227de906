import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Per port: cookies ignore ports, so two `chatos serve` on one machine would otherwise log each other's tabs out. */
export const tokenCookieName = (port: number) => `chatos_token_${port}`;

/** A fresh 256-bit session token, url- and cookie-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Constant-time comparison of a presented secret with the expected one.
 * Both sides are hashed first so the buffers have equal length whatever
 * was sent: the time taken says nothing about the secret's length or
 * prefix.
 */
export function secretMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

export function cookieToken(req: IncomingMessage, port: number): string | undefined {
  const name = tokenCookieName(port);
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The `token` query parameter, when present. */
export function queryToken(query: URLSearchParams): string | undefined {
  return query.get('token') ?? undefined;
}

/** The cookie that carries the token for the renderer's own requests; JS cannot read it, other sites do not send it. */
export function tokenCookie(token: string, port: number): string {
  return `${tokenCookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}

/**
 * The capability in an app's page urls (`/ui/<cap>/<pluginId>/<appId>/…`).
 * Sandboxed frames send no cookie (their origin is opaque), so the path
 * itself proves the url came from this server's session, for this app only.
 */
export function appCapability(token: string, pluginId: string, appId: string): string {
  return createHmac('sha256', token).update(`${pluginId}\n${appId}`).digest('base64url');
}
