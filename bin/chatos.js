#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=16 --heap-growing-percent=30
// The `chatos` command. It runs the CLI that `npm run build` bundles
// (dist/cli/chatos.cjs, which loads the chunks of dist/cli/chunks/ a command
// needs when it runs; scripts/bundleCli.ts says why).
//
// --max-semi-space-size=16 (MiB, only settable when Node starts): since Node
// 22, V8 sizes its young generation from the memory the process may use, up
// to 64 MiB semi-spaces (128 MiB resident) on a machine with 16 GiB or more.
// A busy `chatos serve` grows into it within a few hundred chat turns, which
// was most of the RSS growth issue 39 measured, while the heap it holds stays
// flat. 16 MiB is what Node 20 used; a scavenge of it takes a few ms.
//
// MALLOC_ARENA_MAX=2 (read by glibc when the process starts; ignored
// elsewhere): glibc gives each thread that allocates an arena of its own, up
// to 8 per core, and an arena keeps what was freed in it. Node's threads (V8's
// compiler and collector helpers, libuv's file system pool) take turns, so a
// long `chatos serve` spread its allocations over many arenas, each keeping
// its high-water mark: over 500 chat turns the RSS outside the JS heap grew
// by 29 MiB with the default and by 11-15 with two arenas (issue 39).
//
// --heap-growing-percent=30: after a full collection V8 lets the old
// generation grow to up to 4x what survived it (with a heap limit of 2 GiB or
// more, as here) before it collects again. A chat host keeps ~50 MiB alive,
// and its reserved heap rose with the garbage: after 1,500 chat turns back to
// back the RSS was 261 MiB, 1.45x that after 50 turns, and still rising. At
// 1.3x what survived, the reserved heap stays near 97 MiB: 214 MiB after 500
// turns and 217 after 1,500. Full collections come more often, marked
// concurrently, at no cost found: 500 chat turns took as long, the gateway
// bench ran 30.7k calls/s at 50 in flight (30.5k without), and a knowledge
// base of 100,000 chunks built in 38.8 s (37.4 s without) (issue 39).
// `npm start` (scripts/start.js) and `npm run bench -- memory` start their host with these flags and variables, read
// from here; the desktop app sets the heap's growth as it starts (electron/main.ts).
import { existsSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

/** The command word: the first argument that is neither an option nor the value of one (--home and --plugins take one). */
function commandOf(argv) {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--home' || argv[i] === '--plugins') i++;
    else if (!argv[i].startsWith('-')) return argv[i];
  }
  return undefined;
}

// sql.js is WebAssembly. By default V8 also compiles all of it a second time
// with its optimizing compiler, on a background thread, and a process does not
// exit before that is done: ~300 ms of a one-shot command's ~450 (`chatos agents
// list`), on a second core it would otherwise leave free. A one-shot command
// runs a handful of queries, for which the baseline compiler's code is enough.
// `serve` lives for hours and runs the Chat page's queries: it keeps the default.
if (commandOf(process.argv.slice(2)) !== 'serve') setFlagsFromString('--liftoff-only');

const main = new URL('../dist/cli/chatos.cjs', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('chatos is not built yet: run "npm run build" in the ChatOS folder first.\n');
  process.exit(1);
}
// V8's compiled code of the bundle's files is kept between runs (in the OS's temp folder), so a run skips compiling it again.
module.enableCompileCache?.();
// required, not imported: an ES import of this CommonJS file would first scan its source for its exports.
const cli = module.createRequire(import.meta.url)(fileURLToPath(main));
process.exitCode = await cli.runCli(process.argv.slice(2));
