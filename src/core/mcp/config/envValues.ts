import type { EnvValue } from '../../../shared/mcp.js';
import { ownValue } from '../../../shared/ownKeys.js';

/**
 * `env` and `headers` values are literal strings or `{ env: NAME }` copies of
 * a host variable (seed 002). Definitions keep the written form; the values
 * are read from the host environment only when a server starts, so a secret
 * is never stored in a definition, a registry row or a log.
 */

export interface MissingEnvReference {
  /** The key in the server's `env` / `headers` map. */
  key: string;
  /** The host variable it copies, which is not set. */
  variable: string;
}

export type EnvResolution = { ok: true; values: Record<string, string> } | { ok: false; missing: string[]; message: string };

/** A host variable, never a member process.env inherits (`{ env: toString }` names no variable). */
const hostValue = (hostEnv: NodeJS.ProcessEnv, name: string) => ownValue(hostEnv, name);

/** Every `{ env: NAME }` in `values` whose NAME is not set in `hostEnv` (an empty string counts as set). */
export function findMissingEnvReferences(values: Readonly<Record<string, EnvValue>>, hostEnv: NodeJS.ProcessEnv): MissingEnvReference[] {
  return Object.entries(values).flatMap(([key, value]) =>
    typeof value !== 'string' && hostValue(hostEnv, value.env) === undefined ? [{ key, variable: value.env }] : [],
  );
}

/** The real values of an `env` or `headers` map, or the host variables it needs that are not set. */
export function resolveEnvValues(values: Readonly<Record<string, EnvValue>>, hostEnv: NodeJS.ProcessEnv, serverId: string): EnvResolution {
  const missing = [...new Set(findMissingEnvReferences(values, hostEnv).map((ref) => ref.variable))];
  if (missing.length) {
    const names = missing.join(', ');
    return {
      ok: false,
      missing,
      message: `server "${serverId}" needs the host environment variable${missing.length > 1 ? 's' : ''} ${names}, which ${missing.length > 1 ? 'are' : 'is'} not set`,
    };
  }
  const resolved: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    // defineProperty, not assignment: a "__proto__" key must stay a plain key.
    const text = typeof value === 'string' ? value : hostValue(hostEnv, value.env)!;
    Object.defineProperty(resolved, key, { value: text, enumerable: true, writable: true, configurable: true });
  }
  return { ok: true, values: resolved };
}
