/**
 * One step of signing in to a remote MCP server (the MCP authorization spec's
 * flow), named in every problem so the user knows where it stopped.
 */
export type OAuthStep =
  | 'discovery' // the server's protected resource metadata (RFC 9728)
  | 'authorization-server' // the authorization server's metadata (RFC 8414 / OpenID discovery)
  | 'registration' // client ID metadata document, dynamic registration, or the pre-registered client
  | 'authorization' // the browser and the loopback redirect
  | 'token' // the code exchange
  | 'refresh'
  | 'scope'; // step-up refused again and again

export const OAUTH_STEP_TEXT: Readonly<Record<OAuthStep, string>> = {
  discovery: "reading the server's protected resource metadata",
  'authorization-server': "reading the authorization server's metadata",
  registration: 'registering ChatOS with the authorization server',
  authorization: 'signing in in the browser',
  token: 'exchanging the sign-in code for a token',
  refresh: 'refreshing the token',
  scope: 'asking for more permissions',
};

/** A refused or failed sign-in step: what went wrong and what the user can do. Carries no token, code or secret. */
export class OAuthStepError extends Error {
  override readonly name = 'OAuthStepError';

  constructor(
    readonly step: OAuthStep,
    message: string,
    readonly fix: string,
  ) {
    super(`sign-in failed while ${OAUTH_STEP_TEXT[step]}: ${message}`);
  }
}

/** The step's error along an error's cause chain (the SDK wraps what a provider or fetch throws). */
export function stepErrorIn(error: unknown): OAuthStepError | undefined {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 8; depth++) {
    if (current instanceof OAuthStepError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
