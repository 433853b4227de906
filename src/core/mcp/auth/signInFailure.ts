import type { ServerDefinition } from '../../../shared/mcp.js';
import { McpRuntimeError } from '../mcpRuntimeError.js';
import { SignInNeededError } from './hostOAuthProvider.js';
import { OAuthStepError, stepErrorIn } from './oauthStepError.js';

/** How to sign in to a server, from any face. */
export const signInFix = (def: Pick<ServerDefinition, 'name'>) => `sign in: "Sign in" on the server's card (MCP servers page), or chatos mcp login ${def.name}`;

/**
 * A connection's failure that is about signing in, as the runtime's coded
 * error: SIGN_IN_NEEDED (no token, expired without refresh, more
 * permissions), SIGN_IN_FAILED (a step refused: the message names it), or
 * the step-up retry limit reached. Undefined for every other failure.
 */
export async function signInFailure(error: unknown, def: ServerDefinition, stepUpExhausted: () => Promise<string | undefined>): Promise<McpRuntimeError | undefined> {
  if (error instanceof McpRuntimeError) return error.code === 'SIGN_IN_NEEDED' || error.code === 'SIGN_IN_FAILED' ? error : undefined;
  const step = stepErrorIn(error);
  if (step) return new McpRuntimeError('SIGN_IN_FAILED', `server "${def.id}": ${step.message}`, def.id, step.fix, 'SIGN_IN_FAILED');
  const needed = signInNeededIn(error);
  if (!needed) return undefined;
  const exhausted = await stepUpExhausted();
  if (exhausted !== undefined) {
    const refused = new OAuthStepError(
      'scope',
      `the server still refuses with "insufficient_scope" after you granted ${exhausted || 'what it asked for'} more than once; ChatOS stops asking`,
      "the server's operator has to give your account these permissions; then sign out and sign in again",
    );
    return new McpRuntimeError('SIGN_IN_FAILED', `server "${def.id}": ${refused.message}`, def.id, refused.fix, 'SIGN_IN_FAILED');
  }
  const scope = needed.scope ? ` (permissions: ${needed.scope})` : '';
  return new McpRuntimeError('SIGN_IN_NEEDED', `server "${def.id}" needs you to sign in: ${needed.message}${scope}`, def.id, signInFix(def), 'SIGN_IN_NEEDED');
}

function signInNeededIn(error: unknown): SignInNeededError | undefined {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 8; depth++) {
    if (current instanceof SignInNeededError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
