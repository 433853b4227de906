/**
 * Loaded with `node --import <this file>` before a plugin's MCP server or
 * backend (the run plan shows the flag). It lets plugin code written for
 * the original ChatOS import the host's own `@modelcontextprotocol/sdk` and
 * `zod` without bundling them, and nothing else: only those two bare names
 * (and their subpaths) are mapped, only when the plugin has no copy of its
 * own, and always to the copies installed beside this file.
 *
 * Plain JavaScript on purpose: a plain `node` runs it, from the installed
 * application (unpacked, see electron-builder.yml), never through tsc.
 */
import Module, { createRequire, register } from 'node:module';
import { isHostModule } from './host-modules-names.mjs';

// ES modules (`import … from 'zod'`): a resolve hook in the loader thread.
register('./host-modules-hooks.mjs', import.meta.url);

// CommonJS (`require('zod')`): the loader hooks of Node 20 do not see
// require(), so its resolver falls back to the host's copy the same way.
const hostRequire = createRequire(import.meta.url);
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function resolveWithHostModules(request, parent, isMain, options) {
  try {
    return resolveFilename.call(this, request, parent, isMain, options);
  } catch (error) {
    if (error?.code !== 'MODULE_NOT_FOUND' || !isHostModule(request)) throw error;
    return hostRequire.resolve(request);
  }
};
