import { describe, expect, it } from 'vitest';
import { grantAllows } from '../../../src/core/registry/grantRule.js';

describe('grant rule: who sees a registration', () => {
  const never = () => {
    throw new Error('the grant table is not asked');
  };
  it('the owner sees every row, an app its own and what it was granted, no one a missing row', () => {
    expect(grantAllows('chatos', { id: 'git_app::x' }, 'chatos', never)).toBe(true);
    expect(grantAllows('git_app', { id: 'git_app::x' }, 'chatos', never)).toBe(true);
    expect(grantAllows('aide', { id: 'git_app::x' }, 'chatos', () => true)).toBe(true);
    expect(grantAllows('aide', { id: 'git_app::x' }, 'chatos', () => false)).toBe(false);
    expect(grantAllows('chatos', { id: 'git_app::x', missing: { reason: 'gone' } }, 'chatos', never)).toBe(false);
    expect(grantAllows('aide', { id: 'git_app::x', missing: { reason: 'gone' } }, 'chatos', never)).toBe(false);
    // A provider id that is a prefix of another's is not its owner: the separator counts.
    expect(grantAllows('git', { id: 'git_app::x' }, 'chatos', () => false)).toBe(false);
  });
});
