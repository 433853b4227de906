#!/usr/bin/env node
// The `chatos` command. It runs the compiled CLI from dist/; `npm run build` makes it.
import { existsSync } from 'node:fs';

const main = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('chatos is not built yet: run "npm run build" in the ChatOS folder first.\n');
  process.exit(1);
}
const { runCli } = await import(main.href);
process.exitCode = await runCli(process.argv.slice(2));
