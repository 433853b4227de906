// Joins ES modules into the one inline script of a self-contained HTML
// document (an MCP App view may load nothing: its host's CSP allows inline
// script and no URL). Done when the server starts, not by a build step, so
// `node server.mjs` from a checkout or an install serves the view of the
// code beside it.
//
// It is a linker for plain modules, not a bundler: each module becomes a
// function whose named exports are returned, and an import becomes a read of
// them. It takes only the forms these files use and refuses anything else by
// name, so a new form fails when the server starts, not in a host's iframe:
//   import { a, b as c } from './x.mjs';       (relative, or a mapped package)
//   export function|async function|class|const|let name
// A mapped package is one prebuilt ES module file ending in one
// `export { x as y, … }` (as @modelcontextprotocol/ext-apps/app-with-deps is).
import * as fs from 'node:fs';
import * as path from 'node:path';

const IMPORT = /^import\s*\{([^}]*)\}\s*from\s*'([^']+)';?[ \t]*$/gm;
const EXPORT = /^export\s+(?:async\s+function\*?|function\*?|class|const|let)\s+([A-Za-z_$][\w$]*)/gm;
const FINAL_EXPORT = /export\s*\{([^}]*)\};?\s*$/;

class LinkError extends Error {}

/** `a, b as c` → `{ a, b: c }` (an import) or `{ a, c: b }` (an export list, `local as exported`). */
function bindings(list, file, exportList = false) {
  const pairs = list
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const match = /^([A-Za-z_$][\w$]*)(?:\s+as\s+([A-Za-z_$][\w$]*))?$/.exec(item);
      if (!match) throw new LinkError(`${file}: cannot link the binding "${item}"`);
      return [match[1], match[2] ?? match[1]];
    });
  return `{ ${pairs.map(([a, b]) => (exportList ? `${b}: ${a}` : a === b ? a : `${a}: ${b}`)).join(', ')} }`;
}

/**
 * One script that runs `entry` and every module it imports, each once, in
 * import order. `packages` maps a bare specifier to its prebuilt file.
 * @param {string} entry an absolute path
 * @param {Record<string, string>} packages
 */
export function linkModules(entry, packages = {}) {
  const ids = new Map();
  const linking = new Set();
  const parts = [];
  const visit = (file) => {
    if (linking.has(file)) throw new LinkError(`${file}: an import cycle (a module runs after the ones it imports)`);
    if (ids.has(file)) return ids.get(file);
    const id = `__module${ids.size}`;
    ids.set(file, id);
    const source = fs.readFileSync(file, 'utf8');
    if (Object.values(packages).includes(file)) {
      const tail = FINAL_EXPORT.exec(source);
      if (!tail) throw new LinkError(`${file}: a prebuilt module must end in one export { … }`);
      const body = source.slice(0, tail.index);
      if (/^\s*(import|export)\b/m.test(body)) throw new LinkError(`${file}: a prebuilt module may not import or export before its last line`);
      parts.push(`const ${id} = (() => {\n${body}\nreturn ${bindings(tail[1], file, true)};\n})();`);
      return id;
    }
    const names = [];
    linking.add(file);
    let body = source.replace(IMPORT, (_, list, specifier) => {
      const target = Object.hasOwn(packages, specifier) ? packages[specifier] : specifier.startsWith('.') ? path.resolve(path.dirname(file), specifier) : undefined;
      if (!target) throw new LinkError(`${file}: cannot link "${specifier}": only relative modules and ${Object.keys(packages).join(', ') || 'no packages'}`);
      return `const ${bindings(list, file)} = ${visit(target)};`;
    });
    body = body.replace(EXPORT, (declaration, name) => {
      names.push(name);
      return declaration.replace(/^export\s+/, '');
    });
    const stray = /^\s*(import|export)\b.*$|\bimport\s*\(|\bimport\.meta\b/m.exec(body);
    if (stray) throw new LinkError(`${file}: cannot link "${stray[0].trim()}": use import { … } from '…' and export function/class/const/let`);
    linking.delete(file);
    parts.push(`const ${id} = (() => {\n${body}\nreturn { ${names.join(', ')} };\n})();`);
    return id;
  };
  visit(path.resolve(entry));
  const script = parts.join('\n');
  // Inside <script>, these would end the element or change how the HTML parser reads it.
  const unsafe = /<\/script|<!--|<script/i.exec(script);
  if (unsafe) throw new LinkError(`the linked script holds "${unsafe[0]}", which cannot be inlined in HTML`);
  return script;
}
