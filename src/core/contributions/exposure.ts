import type { ExposureValue } from '../plugins/manifestSchema.js';

/**
 * What an app exposes of existing servers or prompts (way B, docs/rules/names-and-exposure.md#two-ways-to-expose):
 * nothing, everything, or a named list. It bounds what the agent editor
 * offers; the agent's own selection still decides what is mounted.
 */
export type Exposure = { mode: 'off' } | { mode: 'all' } | { mode: 'list'; names: string[] };

/** Which layer decided: the manifest, the `ai.config` file, the default list, or none of them. */
export type ExposureSource = 'inline' | 'config' | 'defaults' | 'none';

export interface ResolvedExposure {
  exposure: Exposure;
  source: ExposureSource;
}

const off: Exposure = { mode: 'off' };
const all: Exposure = { mode: 'all' };
const list = (names: string[]): Exposure => ({ mode: 'list', names: [...names] });

/**
 * The merge order of docs/rules/names-and-exposure.md#exposure, for one of `mcpServers` / `prompts`:
 *
 * | inline      | result                                                           |
 * | ----------- | ---------------------------------------------------------------- |
 * | `false`     | off, whatever the file and the defaults say                      |
 * | `string[]`  | that list                                                        |
 * | `true`      | the ai.config list (or its `false`); else the default list; else all |
 * | not set     | only ai.config counts (list, `false` → off, `true` → all); else off. |
 * |             | The default list is never used without an inline opt-in.         |
 */
export function resolveExposure(inline: ExposureValue | undefined, config: ExposureValue | undefined, defaults: string[] | undefined): ResolvedExposure {
  if (inline === false) return { exposure: off, source: 'inline' };
  if (Array.isArray(inline)) return { exposure: list(inline), source: 'inline' };
  if (inline === true) {
    if (Array.isArray(config)) return { exposure: list(config), source: 'config' };
    if (config === false) return { exposure: off, source: 'config' };
    if (defaults !== undefined) return { exposure: list(defaults), source: 'defaults' };
    return { exposure: all, source: 'inline' };
  }
  if (Array.isArray(config)) return { exposure: list(config), source: 'config' };
  if (config === false) return { exposure: off, source: 'config' };
  if (config === true) return { exposure: all, source: 'config' };
  return { exposure: off, source: 'none' };
}
