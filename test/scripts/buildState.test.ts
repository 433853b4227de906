import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain ESM script (it runs before anything is built), without type declarations
import { inputsDigest, isBuildCurrent, markBuilt } from '../../scripts/buildState.mjs';
import { tempDir } from '../helpers/tempDir.js';

/** `npm start` builds only when a build input changed (README, "Run"). */

function project(): string {
  const root = tempDir();
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  write('package.json', '{"name":"x"}');
  write('tsconfig.json', '{}');
  write('src/core/host.ts', 'export const a = 1;\n');
  write('renderer/src/App.tsx', 'export {};\n');
  write('scripts/start.js', '');
  write('docs/using/chat.md', '# Chat\n');
  fs.mkdirSync(path.join(root, 'dist'));
  return root;
}

describe('whether npm start must build', () => {
  it('builds the first time, skips when nothing changed, and builds again after any input changes', () => {
    const root = project();
    expect(isBuildCurrent(root)).toBe(false);
    markBuilt(root, inputsDigest(root));
    expect(isBuildCurrent(root)).toBe(true);

    // Not a build input: the docs.
    fs.writeFileSync(path.join(root, 'docs/using/chat.md'), '# Chat, edited\n');
    expect(isBuildCurrent(root)).toBe(true);

    const edits: [string, () => void][] = [
      ['a source edited', () => fs.writeFileSync(path.join(root, 'src/core/host.ts'), 'export const a = 2;\n')],
      ['a renderer file added', () => fs.writeFileSync(path.join(root, 'renderer/src/New.tsx'), '')],
      ['a file renamed', () => fs.renameSync(path.join(root, 'scripts/start.js'), path.join(root, 'scripts/begin.js'))],
      ['the lock file written', () => fs.writeFileSync(path.join(root, 'package-lock.json'), '{}')],
    ];
    for (const [what, edit] of edits) {
      edit();
      expect(isBuildCurrent(root), what).toBe(false);
      markBuilt(root, inputsDigest(root));
      expect(isBuildCurrent(root), `${what}, then built`).toBe(true);
    }
  });

  it('builds again when dist/ was removed', () => {
    const root = project();
    markBuilt(root, inputsDigest(root));
    fs.rmSync(path.join(root, 'dist'), { recursive: true });
    expect(isBuildCurrent(root)).toBe(false);
  });
});
