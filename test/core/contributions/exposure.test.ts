import { describe, expect, it } from 'vitest';
import type { ExposureValue } from '../../../src/core/plugins/manifestSchema.js';
import { resolveExposure, type ResolvedExposure } from '../../../src/core/contributions/exposure.js';

const off = (source: ResolvedExposure['source']): ResolvedExposure => ({ exposure: { mode: 'off' }, source });
const all = (source: ResolvedExposure['source']): ResolvedExposure => ({ exposure: { mode: 'all' }, source });
const list = (names: string[], source: ResolvedExposure['source']): ResolvedExposure => ({ exposure: { mode: 'list', names }, source });

const DEFAULTS = ['d1', 'd2'];

/**
 * One row per rule of docs/rules/names-and-exposure.md#exposure (the table in resolveExposure's comment):
 * [rule, inline, ai.config value, default list, result]
 */
const RULES: [string, ExposureValue | undefined, ExposureValue | undefined, string[] | undefined, ResolvedExposure][] = [
  // inline false: off, whatever the file and the defaults say
  ['inline false, nothing else', false, undefined, undefined, off('inline')],
  ['inline false beats a config list', false, ['c1'], undefined, off('inline')],
  ['inline false beats config true', false, true, undefined, off('inline')],
  ['inline false beats the defaults', false, undefined, DEFAULTS, off('inline')],
  ['inline false beats config and defaults together', false, ['c1'], DEFAULTS, off('inline')],
  // inline list: that list
  ['inline list', ['i1', 'i2'], undefined, undefined, list(['i1', 'i2'], 'inline')],
  ['inline list beats a config list and the defaults', ['i1'], ['c1'], DEFAULTS, list(['i1'], 'inline')],
  ['inline list beats config false', ['i1'], false, undefined, list(['i1'], 'inline')],
  ['an empty inline list is an empty list, not all', [], ['c1'], DEFAULTS, list([], 'inline')],
  // inline true: the config list (or its false); else the default list; else all
  ['inline true takes the config list', true, ['c1'], DEFAULTS, list(['c1'], 'config')],
  ['inline true takes config false', true, false, DEFAULTS, off('config')],
  ['inline true with config true falls to the defaults', true, true, DEFAULTS, list(DEFAULTS, 'defaults')],
  ['inline true without config takes the defaults', true, undefined, DEFAULTS, list(DEFAULTS, 'defaults')],
  ['inline true takes an empty default list as written', true, undefined, [], list([], 'defaults')],
  ['inline true with nothing else is all', true, undefined, undefined, all('inline')],
  ['inline true with config true and no defaults is all', true, true, undefined, all('inline')],
  // inline unset: only ai.config counts; the defaults never do
  ['unset takes the config list', undefined, ['c1'], DEFAULTS, list(['c1'], 'config')],
  ['unset takes config false', undefined, false, DEFAULTS, off('config')],
  ['unset takes config true as all', undefined, true, DEFAULTS, all('config')],
  ['unset never uses the defaults', undefined, undefined, DEFAULTS, off('none')],
  ['unset with nothing at all is off', undefined, undefined, undefined, off('none')],
];

describe('resolveExposure (docs/rules/names-and-exposure.md#exposure)', () => {
  it.each(RULES)('%s', (_rule, inline, config, defaults, expected) => {
    expect(resolveExposure(inline, config, defaults)).toEqual(expected);
  });

  it('copies the list, so later changes to the input do not leak in', () => {
    const names = ['a'];
    const resolved = resolveExposure(names, undefined, undefined);
    names.push('b');
    expect(resolved.exposure).toEqual({ mode: 'list', names: ['a'] });
  });
});
