#!/usr/bin/env node
// The `chatos` command. It runs the CLI that `npm run build` bundles into one
// file (dist/cli/chatos.mjs: it loads in about half the time of the ~590
// modules it is made of; scripts/bundleCli.ts says why).
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/chatos.mjs', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('chatos is not built yet: run "npm run build" in the ChatOS folder first.\n');
  process.exit(1);
}
const { runCli } = await import(main.href);
process.exitCode = await runCli(process.argv.slice(2));
