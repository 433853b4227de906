import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * Imports inside antd that take one small binding from a module which
 * imports a whole component or library, pointed at just that binding.
 * antd's dependencies do not mark themselves free of side effects, and a
 * chunk holds every module its modules import, so the rest went wherever
 * the binding went (docs/contributing/layering.md#js-budget):
 *
 * - antd's form context, imported by every input and by the shell, takes
 *   `FormProvider` from `@rc-component/form`'s index, which imports the
 *   whole form library and its validator: ~12 KB gzip in the first load
 *   of every page. The index re-exports it from `es/FormContext`.
 * - antd's radio group, imported by every Table, takes `toNamePathStr` (one
 *   line) from the Form's `useForm`, which imports that library too: ~14 KB
 *   gzip on every page with a table.
 * - antd's Button and Tag styles take `isBright` (a few lines) from the
 *   ColorPicker's presets, which import Collapse: ~5 KB gzip in the first load.
 *
 * The first is a re-export read from its own file; the others are cut out
 * of their file at build time, with the imports they use, into a module of
 * their own. Each is checked against the installed packages when the build
 * starts: a change there fails the build and names this file, rather than
 * bundling a stale copy.
 */
interface Redirect {
  /** The importing file, under antd/es. */
  importer: string;
  source: string;
  /** Where the binding is declared: the module `source` re-exports it from. */
  to: string;
  /** How `source` re-exports it, word for word, in `proof` (a file of that package). */
  proof: { file: string; text: string };
}

interface Cut {
  importer: string;
  /** The import, word for word, in the importer. */
  statement: string;
  source: string;
  /** The file (under antd/es) that declares the binding, the declaration, and the imports it uses, word for word there. */
  file: string;
  declaration: RegExp;
  imports: string[];
}

const REDIRECTS: Redirect[] = [
  {
    importer: 'form/context.js',
    source: '@rc-component/form',
    to: '@rc-component/form/es/FormContext',
    proof: { file: '@rc-component/form/es/index.js', text: 'import { FormProvider } from "./FormContext";' },
  },
];

const CUTS: Cut[] = [
  {
    importer: 'radio/group.js',
    statement: "import { toNamePathStr } from '../form/hooks/useForm';",
    source: '../form/hooks/useForm',
    file: 'form/hooks/useForm.js',
    declaration: /^export function toNamePathStr\(name\) \{\n.*?\n\}$/ms,
    imports: ["import { getFieldId, toArray } from '../util';"],
  },
  ...['button/style/token.js', 'tag/style/index.js'].map((importer) => ({
    importer,
    statement: "import { isBright } from '../../color-picker/components/ColorPresets';",
    source: '../../color-picker/components/ColorPresets',
    file: 'color-picker/components/ColorPresets.js',
    declaration: /^export const isBright = \(value, bgColorToken\) => \{\n.*?\n\};$/ms,
    imports: ["import { ColorBlock, Color as RcColor } from '@rc-component/color-picker';"],
  })),
];

const endsWith = (id: string, file: string) => id.split(path.sep).join('/').endsWith(`/antd/es/${file}`);

export function antdNarrowImports(): Plugin {
  const require = createRequire(import.meta.url);
  const antdEs = path.join(path.dirname(require.resolve('antd/package.json')), 'es');
  const read = (file: string) => fs.readFileSync(file, 'utf8');
  /** The cut modules by their id: the declaration, after its imports with paths made absolute. */
  const cutModules = new Map<string, string>();
  const cutId = (cut: Cut) => `\0chatos:antd-cut:${cut.file}`;
  return {
    name: 'chatos:antd-narrow-imports',
    enforce: 'pre',
    buildStart() {
      const stale = (what: string) => this.error(`${what}: the installed antd changed; review renderer/antdImports.ts`);
      for (const redirect of REDIRECTS) {
        if (!read(require.resolve(redirect.proof.file)).includes(redirect.proof.text)) stale(`${redirect.proof.file} no longer says ${redirect.proof.text}`);
        if (!read(path.join(antdEs, redirect.importer)).includes(`from '${redirect.source}'`)) stale(`antd/es/${redirect.importer} no longer imports ${redirect.source}`);
      }
      for (const cut of CUTS) {
        if (!read(path.join(antdEs, cut.importer)).includes(cut.statement)) stale(`antd/es/${cut.importer} no longer says ${cut.statement}`);
        const file = path.join(antdEs, cut.file);
        const text = read(file);
        const declaration = cut.declaration.exec(text);
        if (!declaration) stale(`antd/es/${cut.file} no longer declares ${cut.declaration}`);
        for (const line of cut.imports) if (!text.includes(line)) stale(`antd/es/${cut.file} no longer says ${line}`);
        const absolute = (line: string) => line.replace(/from '(\.[^']*)'/, (_, spec: string) => `from ${JSON.stringify(path.resolve(path.dirname(file), spec))}`);
        cutModules.set(cutId(cut), `${cut.imports.map(absolute).join('\n')}\n${declaration![0]}\n`);
      }
    },
    async resolveId(source, importer) {
      if (!importer) return null;
      const redirect = REDIRECTS.find((r) => r.source === source && endsWith(importer, r.importer));
      if (redirect) return this.resolve(redirect.to, importer, { skipSelf: true });
      const cut = CUTS.find((c) => c.source === source && endsWith(importer, c.importer));
      return cut ? cutId(cut) : null;
    },
    load(id) {
      return cutModules.get(id) ?? null;
    },
  };
}
