import type { NetworkFailure } from '../../../shared/models.js';

/**
 * What failed under a request that got no HTTP answer, from the system codes
 * along the error's cause chain (fetch wraps them: `TypeError: fetch failed`
 * → `Error: getaddrinfo ENOTFOUND …` with code ENOTFOUND).
 */
const CODES: readonly [NetworkFailure, RegExp][] = [
  ['dns', /^(ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL|EAI_NODATA)$/],
  ['refused', /^(ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL)$/],
  ['timeout', /^(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT)$/],
  ['tls', /^(EPROTO|ERR_SSL_.*|ERR_TLS_.*|CERT_.*|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_.*|HOSTNAME_MISMATCH)$/],
  ['reset', /^(ECONNRESET|EPIPE|ECONNABORTED|UND_ERR_SOCKET|UND_ERR_CLOSED)$/],
];

export function networkFailureOf(error: unknown): NetworkFailure {
  const codes: string[] = [];
  const names: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== null && typeof current === 'object' && depth < 8; depth++) {
    const { code, name, constructor } = current as { code?: unknown; name?: unknown; constructor?: { name?: string } };
    if (typeof code === 'string') codes.push(code);
    if (typeof name === 'string') names.push(name);
    if (constructor?.name) names.push(constructor.name);
    current = (current as { cause?: unknown }).cause;
  }
  for (const [failure, pattern] of CODES) if (codes.some((code) => pattern.test(code))) return failure;
  // The SDKs' own timeout (no system code under it).
  if (names.some((name) => /Timeout/.test(name))) return 'timeout';
  if (names.some((name) => /SSL|TLS/i.test(name))) return 'tls';
  return 'other';
}
