import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HostApiMethods } from '../../src/shared/hostApi.js';
import { repoRoot } from '../helpers/tempDir.js';

/**
 * A page's or a card's own texts (renderer/src/i18n/lazy/*.ts) are not in the
 * first load: each part that says them imports `i18n/load/<area>`, so they
 * arrive with it. A part that forgot would show bare keys, and only when it is
 * the first to show them, so this reads every renderer file for the keys it
 * names (a quoted key, or the fixed start of a template like `mcpAdmin.code.${code}`)
 * and asks for the import.
 */

const i18nDir = path.join(repoRoot, 'renderer/src/i18n');
const keysOf = (file: string) => new Set([...fs.readFileSync(file, 'utf8').matchAll(/^\s+'([A-Za-z]+\.[^']+)':/gm)].map((m) => m[1]!));
const tsFiles = (dir: string) => (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => /\.tsx?$/.test(f)).sort();

const eager = new Set(tsFiles(path.join(i18nDir, 'resources')).flatMap((f) => [...keysOf(path.join(i18nDir, 'resources', f))]));
const lazy = new Map(tsFiles(path.join(i18nDir, 'lazy')).map((f) => [f.replace(/\.ts$/, ''), keysOf(path.join(i18nDir, 'lazy', f))]));
// API method names ('resources.read') look like keys; a file naming one does not say a text.
const methods = new Set(Object.keys(HostApiMethods));

/** The lazy areas whose texts `source` says. */
function areasSaid(source: string): Set<string> {
  const areas = new Set<string>();
  for (const m of source.matchAll(/['"]([A-Za-z]+\.[\w.]+)['"]|`([A-Za-z]+\.[\w.]*)(\$\{|`)/g)) {
    const [, quoted, start, end] = m;
    const whole = quoted ?? (end === '`' ? start! : undefined);
    const said = (keys: Set<string>) => (whole !== undefined ? keys.has(whole) : [...keys].some((key) => key.startsWith(start!)));
    if (whole !== undefined && methods.has(whole)) continue;
    if (said(eager)) continue;
    for (const [area, keys] of lazy) if (said(keys)) areas.add(area);
  }
  return areas;
}

/** The areas `source` loads: `import '…/i18n/load/<area>'`, or `import('…/i18n/load/<area>')` when it says them after that resolves. */
const areasLoaded = (source: string) => new Set([...source.matchAll(/import\(?\s*'(?:\.\.?\/)+(?:i18n\/)?load\/(\w+)'/g)].map((m) => m[1]!));

describe('texts loaded with the parts that say them', () => {
  it('every lazy area has its loader, and no key is in both the first load and a lazy area', () => {
    for (const area of lazy.keys()) expect(fs.existsSync(path.join(i18nDir, 'load', `${area}.ts`)), `i18n/load/${area}.ts`).toBe(true);
    for (const [area, keys] of lazy)
      expect(
        [...keys].filter((key) => eager.has(key)),
        area,
      ).toEqual([]);
  });

  it('every renderer file that says a lazy text imports its area', () => {
    const srcDir = path.join(repoRoot, 'renderer/src');
    const files = tsFiles(srcDir).filter((f) => !f.startsWith('i18n'));
    const sources = new Map(files.map((file) => [file, fs.readFileSync(path.join(srcDir, file), 'utf8')]));
    // A helper that only builds keys (rootKind.ts) may leave the import to the files that import it and say them.
    const importers = (file: string) =>
      files.filter((other) => [...sources.get(other)!.matchAll(/from '(\.[^']+)'/g)].some((m) => path.join(path.dirname(other), m[1]!) === file.replace(/\.tsx?$/, '')));
    const missing: string[] = [];
    let checked = 0;
    for (const file of files) {
      for (const area of areasSaid(sources.get(file)!)) {
        checked++;
        const loads = (f: string) => areasLoaded(sources.get(f)!).has(area);
        const users = importers(file);
        if (!loads(file) && !(users.length > 0 && users.every(loads))) missing.push(`${file} says ${area} texts without importing i18n/load/${area}`);
      }
    }
    expect(missing).toEqual([]);
    // The reading itself still finds them (a changed key format would otherwise pass silently).
    expect(checked).toBeGreaterThan(50);
  });
});
