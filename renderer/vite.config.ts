import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { antdNarrowImports } from './antdImports.ts';

const rendererRoot = fileURLToPath(new URL('.', import.meta.url));
const hostSource = path.resolve(rendererRoot, '../src') + path.sep;

/**
 * The renderer may `import type` from src/shared (erased at build time) but
 * never a value: that would pull zod and, worse, node code into the bundle.
 * Type-only imports never reach the bundler, so anything from src/ that does
 * is a mistake worth failing the build for.
 */
function typesOnlyFromHostSource(): Plugin {
  return {
    name: 'chatos:types-only-from-src',
    enforce: 'pre',
    load(id) {
      if (path.resolve(id.split('?')[0] ?? id).startsWith(hostSource)) {
        this.error(`the renderer imports a value from ${path.relative(rendererRoot, id)}; use \`import type\` (src/ is types only for the renderer)`);
      }
      return null;
    },
  };
}

/**
 * React, the router, i18n and antd's core (config provider, theme, css-in-js,
 * shared utilities), with Typography and Tag (every page shows them), form one
 * vendor chunk every page shares and the browser caches across builds of the
 * pages. Each other antd component stays with the pages that use it, so a
 * page pulls in only what it shows.
 */
const vendorCore =
  /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next|html-parse-stringify|void-elements|@babel[\\/]runtime|@ant-design[\\/](cssinjs|cssinjs-utils|colors|fast-color)|@rc-component[\\/](util|motion|resize-observer|context)|antd[\\/]es[\\/](config-provider|theme|_util|locale|style|version|typography|tag))[\\/]/;

export default defineConfig({
  root: rendererRoot,
  base: './',
  plugins: [typesOnlyFromHostSource(), antdNarrowImports(), react()],
  // The code highlighter's worker loads each language's grammar as its own chunk.
  worker: { format: 'es' },
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: false,
    // scripts/bundleBudget.ts reads it: the chunks each page loads before it is interactive.
    manifest: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: {
        // Rolldown's form of `manualChunks` (which it still accepts, deprecated):
        // the core above in one `vendor` chunk, everything else split by the pages that use it.
        codeSplitting: {
          groups: [{ name: 'vendor', test: vendorCore }],
        },
      },
    },
  },
});
