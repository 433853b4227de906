import { isIP } from 'node:net';

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

/**
 * A URL host name that stays on this machine (`localhost`, 127.0.0.0/8, ::1):
 * plain http to it crosses no network, so nobody on a path can read or change
 * it (RFC 8252 §8.3 allows it for the same reason).
 */
export function isLoopbackName(hostname: string): boolean {
  return hostname === 'localhost' || (isIP(bare(hostname)) !== 0 && /^(127\.|::1$)/.test(bare(hostname)));
}
