import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/tempDir.js';

type LockEntry = { optionalDependencies?: Record<string, string> };

/**
 * `npm ci` (what .ci/run does on a clean clone) refuses a lock that lacks an
 * entry for any optional dependency, even one for another platform; `npm
 * install` here drops the entries of platform packages the registry mirror
 * does not serve (oxc-parser's, under knip). Re-add them by hand after an
 * install that removed them: version, os, cpu, optional.
 */
describe('package-lock.json', () => {
  it('has an entry for every optional dependency, so npm ci on a clean clone accepts it', () => {
    const lock = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
    const missing: string[] = [];
    for (const [at, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        const nested = `${at ? `${at}/` : ''}node_modules/${name}`;
        if (!Object.hasOwn(lock.packages, nested) && !Object.hasOwn(lock.packages, `node_modules/${name}`)) missing.push(`${name} (for ${at || 'the root'})`);
      }
    }
    expect(missing).toEqual([]);
  });
});
