import { IssuerMismatchError, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';

/**
 * Whether a 2026-07-28 connect failed because the server is of the 2025 era
 * (docs/rules/mcp-yaml.md#protocol-eras): the v2 client, pinned to
 * 2026-07-28, sent `server/discover` and the answer was no 2026 evidence (a
 * "method not found", a 400 of a server that wants `initialize` first, a
 * discover result without 2026-07-28). The SDK says so with
 * EraNegotiationFailed and nothing attached; the same code with a cause (the
 * network failed) or an HTTP status (a 5xx, a 401) is an outage or a sign-in,
 * not an era, and fails the start as any connect failure does.
 */
export function isLegacyVerdict(error: unknown): boolean {
  return error instanceof SdkError && !(error instanceof SdkHttpError) && error.code === SdkErrorCode.EraNegotiationFailed && error.data === undefined;
}

/**
 * Whether the 2026 probe was refused by the v2 SDK's own sign-in check of the authorization server's metadata
 * (RFC 8414 §3.3 issuer echo) before anything was sent: a 2025-03-26 server, whose authorization server sits at its
 * origin without protected resource metadata, fails it. The start then goes on as a 2025 start (the v1 client,
 * which says SIGN_IN_NEEDED as before); the sign-in itself still checks the issuer wherever the server
 * publishes protected resource metadata (auth/signIn.ts).
 */
export function isProbeSignInRefusal(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 8; current = current.cause, depth++) {
    if (current instanceof IssuerMismatchError && current.kind === 'metadata') return true;
  }
  return false;
}
