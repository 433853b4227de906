/**
 * The renderer's JS budget (issues 16 and 39): what a browser must load
 * before a page is interactive stays at most 400 KB gzip, for every page.
 * Measured from Vite's manifest, not guessed from file names: the entry
 * chunk and every chunk it imports statically, plus, for each page (a lazy
 * route chunk), that page's own static closure. Dynamic imports (Markdown,
 * the highlighter and its languages, editors, drawers, a picked tool's card)
 * are loaded later and are not counted; `npm run bench -- "renderer ui"`
 * weighs what each page really fetches before it is ready.
 *
 *   node dist/scripts/bundleBudget.js [RENDERER_DIR]   (npm run build runs it)
 *
 * Exit 1, naming the page and its chunks, when the first load or any page is over the budget.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export const JS_BUDGET_BYTES = 400 * 1024;

/**
 * Pages the build must have: the one the app opens on (Apps) and the Chat
 * page. A build where they are missing (renamed, or no longer a lazy chunk
 * under `pages/`) weighs nothing for them, so it fails rather than passing
 * silently. Every page found is held to the budget.
 */
export const EXPECTED_PAGES = [/\/AppsPage\.tsx$/, /\/ChatPage\.tsx$/];

/** One entry of `.vite/manifest.json` (the fields this check reads). */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface PageWeight {
  /** `(first load)` for the entry alone, else the page's source path. */
  page: string;
  files: string[];
  gzipBytes: number;
}

/** The manifest keys `key` loads before it runs: itself and its static imports, transitively. */
function staticClosure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  if (into.has(key) || !Object.hasOwn(manifest, key)) return into;
  into.add(key);
  for (const imported of manifest[key]!.imports ?? []) staticClosure(manifest, imported, into);
  return into;
}

/** The pages: the lazy chunks under `pages/` (each a route of the app). */
function pageKeys(manifest: Manifest): string[] {
  return Object.keys(manifest).filter((key) => manifest[key]!.isDynamicEntry && /(^|\/)pages\/[^/]+\.tsx?$/.test(manifest[key]!.src ?? key));
}

/** The gzip weight of the first load, and of the first load plus each page. */
export function measurePages(manifest: Manifest, gzipOf: (file: string) => number): PageWeight[] {
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entry) throw new Error('the Vite manifest names no entry chunk');
  const first = staticClosure(manifest, entry);
  const weigh = (page: string, keys: Set<string>): PageWeight => {
    const files = [...new Set([...keys].map((key) => manifest[key]!.file))].filter((file) => file.endsWith('.js'));
    return { page, files, gzipBytes: files.reduce((sum, file) => sum + gzipOf(file), 0) };
  };
  return [weigh('(first load)', first), ...pageKeys(manifest).map((key) => weigh(key, staticClosure(manifest, key, new Set(first))))];
}

/** The weights over the budget, the first load's or any page's; an expected page missing from the build is an error too. */
export function overBudget(pages: PageWeight[], budget = JS_BUDGET_BYTES, expected = EXPECTED_PAGES): string[] {
  const failures: string[] = [];
  for (const pattern of expected) if (!pages.some((page) => pattern.test(page.page))) failures.push(`no page matching ${pattern} in the build`);
  for (const page of pages) {
    if (page.gzipBytes > budget)
      failures.push(
        `${page.page} loads ${kb(page.gzipBytes)} gzip before it is interactive (budget ${kb(budget)}): ${page.files.join(', ')}. Load what the page does not show at first with React.lazy or import().`,
      );
  }
  return failures;
}

/** Reads the build's manifest and weighs every page's first load from the files on disk. */
export function measureBuild(rendererDir: string): PageWeight[] {
  const manifestFile = path.join(rendererDir, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestFile)) throw new Error(`${manifestFile} is missing: build the renderer with build.manifest on (npm run build)`);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
  const sizes = new Map<string, number>();
  // zlib's default level, as scripts/bench/uiBench.ts weighs what the browser fetched: the two figures agree.
  const gzipOf = (file: string) => sizes.get(file) ?? sizes.set(file, gzipSync(fs.readFileSync(path.join(rendererDir, file))).length).get(file)!;
  return measurePages(manifest, gzipOf);
}

function main(): void {
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const rendererDir = path.resolve(process.argv[2] ?? path.join(repoRoot, 'dist', 'renderer'));
  const pages = measureBuild(rendererDir);
  const failures = overBudget(pages);
  for (const failure of failures) console.error(`renderer JS budget: ${failure}`);
  if (failures.length) return void (process.exitCode = 1);
  const summary = pages.map((page) => `${page.page.replace(/^.*\//, '')} ${kb(page.gzipBytes)}`).join(', ');
  console.log(`renderer JS budget (${kb(JS_BUDGET_BYTES)} gzip before a page is interactive, every page held to it): ${summary}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
