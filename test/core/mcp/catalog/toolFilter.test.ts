import { describe, expect, it } from 'vitest';
import { describeDrop, filterMode, filterTool, globMatches, type FilterVerdict, type ToolFilter } from '../../../../src/core/mcp/catalog/toolFilter.js';

describe('globMatches: only "*" is special, and it matches any substring', () => {
  // [pattern, name, matches]
  const cases: [string, string, boolean][] = [
    ['*', 'anything', true],
    ['*', '', true],
    ['browser_click', 'browser_click', true],
    ['browser_click', 'browser_clicks', false],
    ['browser_*', 'browser_click', true],
    ['browser_*', 'browser_', true],
    ['browser_*', 'my_browser_click', false],
    ['*_unsafe', 'eval_unsafe', true],
    ['*_unsafe', 'eval_unsafe_not', false],
    ['*click*', 'browser_click_twice', true],
    ['a*b*c', 'axxbyyc', true],
    ['a*b*c', 'acb', false],
    ['ab*ba', 'aba', false], // prefix and suffix must not overlap
    ['ab*ba', 'abba', true],
    ['a*b*b', 'ab', false], // a middle part must end before the suffix starts
    ['a*bc*c', 'abc', false],
    ['a*bc*c', 'abcc', true],
    ['a**b', 'ab', true],
    ['a.b', 'axb', false], // "." is literal, not a regex dot
    ['a?b', 'axb', false], // "?" is literal
    ['a?b', 'a?b', true],
    ['[ab]', 'a', false],
    ['(x)+', '(x)+', true],
    ['Browser_*', 'browser_click', false], // case matters
    ['', '', true],
    ['', 'a', false],
  ];
  it.each(cases)('%j against %j: %s', (pattern, name, matches) => {
    expect(globMatches(pattern, name)).toBe(matches);
  });
});

describe('filterTool: the modes of docs/rules/mcp-yaml.md#tool-filters', () => {
  // [rule, whitelist, blacklist, raw tool name, verdict]
  const cases: [string, string[], string[], string, FilterVerdict][] = [
    // no lists: everything is registered
    ['no lists keep every tool', [], [], 'anything', { kept: true, reason: 'no-filter' }],
    // whitelist-only mode (blacklist omitted or empty)
    ['whitelist-only: a match is kept', ['browser_*', 'page_*'], [], 'page_open', { kept: true, reason: 'whitelisted', pattern: 'page_*' }],
    ['whitelist-only: no match is dropped', ['browser_*', 'page_*'], [], 'file_read', { kept: false, reason: 'not-whitelisted' }],
    // whitelist + blacklist mode (blacklist non-empty)
    ['blacklist: a blacklisted tool is dropped', [], ['*_unsafe'], 'eval_unsafe', { kept: false, reason: 'blacklisted', pattern: '*_unsafe' }],
    ['blacklist: any other tool is kept', [], ['*_unsafe'], 'eval', { kept: true, reason: 'not-blacklisted' }],
    ['both: the whitelist overrides the blacklist', ['browser_*'], ['*_unsafe'], 'browser_eval_unsafe', { kept: true, reason: 'whitelisted', pattern: 'browser_*', overrides: '*_unsafe' }],
    ['both: whitelisted and not blacklisted is kept', ['browser_*'], ['*_unsafe'], 'browser_click', { kept: true, reason: 'whitelisted', pattern: 'browser_*' }],
    ['both: blacklisted and not whitelisted is dropped', ['browser_*'], ['*_unsafe'], 'file_unsafe', { kept: false, reason: 'blacklisted', pattern: '*_unsafe' }],
    ['both: on neither list is kept (the whitelist does not restrict)', ['browser_*'], ['*_unsafe'], 'file_read', { kept: true, reason: 'not-blacklisted' }],
    ['the first matching pattern is reported', ['x*', '*x', 'x'], [], 'x', { kept: true, reason: 'whitelisted', pattern: 'x*' }],
  ];
  it.each(cases)('%s', (_rule, whitelist, blacklist, name, verdict) => {
    expect(filterTool({ whitelist, blacklist }, name)).toEqual(verdict);
  });

  it('matches the raw name, not a transformed one', () => {
    // The catalog passes the raw name; a pattern written for the final name does not match it.
    expect(filterTool({ whitelist: ['playwright_*'], blacklist: [] }, 'browser_click')).toEqual({ kept: false, reason: 'not-whitelisted' });
  });

  it.each([
    [{ whitelist: [], blacklist: [] }, 'none'],
    [{ whitelist: ['a'], blacklist: [] }, 'whitelist-only'],
    [{ whitelist: [], blacklist: ['a'] }, 'whitelist-and-blacklist'],
    [{ whitelist: ['a'], blacklist: ['b'] }, 'whitelist-and-blacklist'],
  ] as [ToolFilter, string][])('%j is mode %s', (filter, mode) => {
    expect(filterMode(filter)).toBe(mode);
  });

  it.each([
    [{ kept: false, reason: 'blacklisted', pattern: '*_unsafe' } as const, 'blacklist pattern "*_unsafe"'],
    [{ kept: false, reason: 'not-whitelisted' } as const, 'no whitelist pattern ("a*", "b")'],
  ])('describes a drop: %j', (verdict, fragment) => {
    expect(describeDrop(verdict, { whitelist: ['a*', 'b'], blacklist: ['*_unsafe'] })).toContain(fragment);
  });
});
