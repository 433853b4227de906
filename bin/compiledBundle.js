// Runs a CommonJS bundle with V8's code cache kept beside it, so the next run
// skips compiling the ~3 MB of JavaScript again (Node 20 keeps no such cache
// for ES modules; Node 22's module.enableCompileCache would do this for us).
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as vm from 'node:vm';

/**
 * Loads the bundle at `url` (a CommonJS file) and returns its exports, with
 * `keepCompiledCode()` to call once the command has run: the cache then holds
 * the functions this run compiled too. V8 checks a cache against the source
 * and its own version and flags, and refuses one that does not match: the
 * bundle then compiles as if there were none, and the cache is written anew.
 * A cache that cannot be written (a read-only install) is simply not kept.
 */
export function loadCompiled(url) {
  const file = fileURLToPath(url);
  const cacheFile = `${file}.v8cache`;
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // The wrapper Node gives every CommonJS file.
  const source = `(function (exports, require, module, __filename, __dirname) { ${fs.readFileSync(file, 'utf8')}\n});`;
  const script = new vm.Script(source, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  return {
    exports: module.exports,
    keepCompiledCode() {
      if (cachedData && !script.cachedDataRejected) return;
      try {
        // Written whole, then renamed: two commands started together never read half a cache.
        const partial = `${cacheFile}.${process.pid}.partial`;
        fs.writeFileSync(partial, script.createCachedData());
        fs.renameSync(partial, cacheFile);
      } catch {
        // Not kept: the next run compiles again, as it would without a cache.
      }
    },
  };
}
