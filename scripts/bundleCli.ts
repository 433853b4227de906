/**
 * Bundles the `chatos` command into dist/cli/chatos.cjs, which bin/chatos.js
 * runs, and the chunks it loads when a command runs, dist/cli/chunks/ (npm
 * run build runs this after tsc).
 *
 * Why: every `chatos` run used to load ~590 modules (our 315 compiled files,
 * zod's 116, the MCP SDK's...), and resolving and compiling them one by one
 * took ~0.8 s before the command did anything. One bundled file loads in
 * ~0.5 s, and a user runs the CLI (and the test suite runs it) thousands of
 * times. Vite (already the renderer's bundler) does the work with Rolldown.
 *
 * CommonJS, so Node loads each file with its compile cache (bin/chatos.js
 * turns it on): a command then spends ~20% less CPU before it does anything.
 *
 * Split where the CLI loads its actions (src/cli/lazyAction.ts): chatos.cjs
 * holds commander and the command definitions (~150 KB), so `chatos --help`
 * and bad usage evaluate nothing else; each command's action, and the core
 * it shares with the others, are chunks required when that command runs.
 *
 * Left outside the bundle, loaded from node_modules as before:
 *  - sql.js finds its .wasm file beside its own module, usearch its native
 *    build (node-gyp-build looks beside its package.json);
 *  - the model SDKs and unpdf are imported lazily, only by the commands that
 *    talk to a provider or read a PDF, so they stay out of every other run;
 *  - mathjs and turndown likewise, only when the built-in calculator or
 *    fetch tool answers a call;
 *  - gpt-tokenizer, only when an OpenAI model's context window needs counting;
 *  - electron is never loaded by the CLI (the layering check forbids it).
 * The code's own files are found from the app root (core/appPaths.ts walks up
 * to package.json), so it runs the same from dist/cli/ as from dist/src/.
 *
 *   node dist/scripts/bundleCli.js [APP_ROOT]
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

/** Packages the bundle imports at run time instead of containing. */
export const CLI_EXTERNALS = ['sql.js', 'usearch', 'pg', 'electron', 'openai', '@anthropic-ai/sdk', 'unpdf', 'mathjs', 'turndown', 'gpt-tokenizer'];

export async function bundleCli(appRoot: string): Promise<void> {
  const external = (id: string) => id.startsWith('node:') || CLI_EXTERNALS.some((name) => id === name || id.startsWith(`${name}/`));
  await build({
    configFile: false,
    root: appRoot,
    logLevel: 'warn',
    // Node's built-ins and the packages above stay imports; everything else is inlined.
    ssr: { noExternal: true, target: 'node' },
    // Some packages (jsonc-parser) ship a UMD `main` whose require() calls a bundler cannot follow; their ESM build can be followed.
    resolve: { mainFields: ['module', 'main'], conditions: ['node', 'import', 'default'] },
    build: {
      ssr: path.join(appRoot, 'dist', 'src', 'cli', 'main.js'),
      outDir: path.join(appRoot, 'dist', 'cli'),
      emptyOutDir: true,
      target: 'node24',
      minify: false,
      sourcemap: false,
      reportCompressedSize: false,
      rollupOptions: { external, output: { format: 'cjs', entryFileNames: 'chatos.cjs', chunkFileNames: 'chunks/[name].cjs' } },
    },
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await bundleCli(path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..')));
}
