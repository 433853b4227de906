import type { EnvValue } from '../../../shared/mcp.js';
import { ownValue } from '../../../shared/ownKeys.js';

/**
 * `env` and `headers` values are literal strings, `{ env: NAME }` copies of
 * a host variable (docs/rules/mcp-yaml.md#environment-and-headers), or `{ secret: NAME }` values kept in the
 * host's key store. Definitions keep the written form; the values are read
 * only when a server starts, so a secret is never stored in a definition, a
 * registry row or a log.
 */

export interface MissingEnvReference {
  /** The key in the server's `env` / `headers` map. */
  key: string;
  /** The host variable it copies, which is not set. */
  variable: string;
}

export type EnvResolution = { ok: true; values: Record<string, string> } | { ok: false; missing: string[]; message: string; reason: 'ENV_MISSING' | 'SECRET_MISSING' };

/** Reads one stored value by its name (`{ secret: NAME }`); undefined when none is stored. */
export type ReadStoredValue = (name: string) => Promise<string | undefined>;

/** A host variable, never a member process.env inherits (`{ env: toString }` names no variable). */
const hostValue = (hostEnv: NodeJS.ProcessEnv, name: string) => ownValue(hostEnv, name);

/** Every `{ env: NAME }` in `values` whose NAME is not set in `hostEnv` (an empty string counts as set). */
export function findMissingEnvReferences(values: Readonly<Record<string, EnvValue>>, hostEnv: NodeJS.ProcessEnv): MissingEnvReference[] {
  return Object.entries(values).flatMap(([key, value]) => (typeof value !== 'string' && 'env' in value && hostValue(hostEnv, value.env) === undefined ? [{ key, variable: value.env }] : []));
}

/** The stored-value names `values` refers to (`{ secret: NAME }`). */
export function storedValueNames(values: Readonly<Record<string, EnvValue>>): string[] {
  return Object.values(values).flatMap((value) => (typeof value !== 'string' && 'secret' in value ? [value.secret] : []));
}

/**
 * The real values of an `env` or `headers` map, or what is missing: host
 * variables that are not set, or stored values that are not in the store.
 * `stored` holds the stored values already read (see `readStoredValues`).
 */
export function resolveEnvValues(values: Readonly<Record<string, EnvValue>>, hostEnv: NodeJS.ProcessEnv, serverId: string, stored: ReadonlyMap<string, string> = new Map()): EnvResolution {
  const missing = [...new Set(findMissingEnvReferences(values, hostEnv).map((ref) => ref.variable))];
  if (missing.length) {
    const names = missing.join(', ');
    return {
      ok: false,
      missing,
      reason: 'ENV_MISSING',
      message: `server "${serverId}" needs the host environment variable${missing.length > 1 ? 's' : ''} ${names}, which ${missing.length > 1 ? 'are' : 'is'} not set`,
    };
  }
  const unstored = [...new Set(storedValueNames(values).filter((name) => !stored.has(name)))];
  if (unstored.length) {
    return {
      ok: false,
      missing: unstored,
      reason: 'SECRET_MISSING',
      message: `server "${serverId}" needs the stored value${unstored.length > 1 ? 's' : ''} ${unstored.join(', ')}, which ${unstored.length > 1 ? 'are' : 'is'} not in the key store`,
    };
  }
  const resolved: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    const text = typeof value === 'string' ? value : 'env' in value ? hostValue(hostEnv, value.env)! : stored.get(value.secret)!;
    // defineProperty, not assignment: a "__proto__" key must stay a plain key.
    Object.defineProperty(resolved, key, { value: text, enumerable: true, writable: true, configurable: true });
  }
  return { ok: true, values: resolved };
}

/** Reads the stored values `values` refers to; a name the store does not hold is left out (resolveEnvValues reports it). */
export async function readStoredValues(values: Readonly<Record<string, EnvValue>>, read: ReadStoredValue | undefined): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (!read) return found;
  for (const name of new Set(storedValueNames(values))) {
    const value = await read(name);
    if (value !== undefined) found.set(name, value);
  }
  return found;
}
