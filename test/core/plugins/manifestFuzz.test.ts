import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createHost } from '../../../src/core/host.js';
import { ProblemSchema, type Problem } from '../../../src/shared/problems.js';

/**
 * Property: whatever a plugin.json holds, a scan of it through the real
 * scanner (files on disk, a real host's catalog) ends, throws nothing, and
 * reports each problem with a file and a JSON path that names a place in
 * what was written (or '' for the whole file). Fixed seed, so a failure
 * replays; fast-check prints the seed and the shrunk manifest.
 */

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf'];
/** Any UTF-16 code unit: lone surrogates, control characters, NUL. */
const anyUnits = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 12 });
const oddKey = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS, '', 'a.b', 'a b', '[0]', '"q"', '0', '🙂', '\u0000', '$schema', '//', 'id', 'name', 'entry', 'mcp', 'apps'), anyUnits);
const oddString = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.oneof(
      fc.string({ maxLength: 12 }),
      anyUnits,
      fc.constantFrom(
        ...PROTOTYPE_KEYS,
        '../x',
        '/etc/passwd',
        'index.mjs',
        'plugin.json',
        'prompt.md',
        'ai.yaml',
        'C:\\x',
        '\\\\srv\\x',
        'a\u0000b',
        'http://127.0.0.1:1/mcp',
        'file:///etc/passwd',
        '$dataDir',
      ),
    ),
  },
  // Rarely, a string past every cap (the manifest's is 256 KiB).
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'é'.repeat(n)) },
);

const { value: anyJson } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
    oddString,
    fc.array(tie('value'), { maxLength: 4 }),
    // Built with fromEntries: an own "__proto__" key, as JSON.parse makes it.
    fc.array(fc.tuple(oddKey, tie('value')), { maxLength: 4 }).map((entries) => Object.fromEntries(entries)),
  ),
}));

/** A field that is usually well formed (so validation goes deep), sometimes anything. */
const field = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: anyJson });
const record = (entries: Record<string, fc.Arbitrary<unknown>>) => fc.record(entries, { requiredKeys: [] });
/** A map keyed by outside names: prototype keys included. */
const dictionary = (value: fc.Arbitrary<unknown>) => fc.array(fc.tuple(oddKey, value), { maxLength: 4 }).map((entries) => Object.fromEntries(entries));
const relativePath = fc.constantFrom('index.mjs', 'prompt.md', 'ai.yaml', 'plugin.json', 'missing.mjs', '../outside.mjs', '/abs.mjs', 'sub', '', 'fifo');

const mcp = record({
  entry: field(relativePath),
  url: field(fc.constantFrom('http://127.0.0.1:1/mcp', 'ftp://x', 'not a url')),
  command: field(fc.constantFrom('node', 'python3', 'a b')),
  args: field(fc.array(oddString, { maxLength: 3 })),
  env: field(dictionary(oddString)),
  callMeta: field(dictionary(anyJson)),
  permissions: field(dictionary(fc.constantFrom('read', 'write', 'confirm', 'navigate', 'constructor'))),
  allowMain: field(fc.boolean()),
  allowSub: field(fc.boolean()),
});
const promptSide = fc.oneof(relativePath, record({ path: relativePath }), record({ content: oddString }));
const app = record({
  id: field(fc.constantFrom('main', 'a', 'b-2', 'constructor', 'bad.id', '')),
  name: field(oddString),
  entry: field(fc.oneof(relativePath, record({ type: field(fc.constant('module')), path: relativePath, compact: field(relativePath) }))),
  icon: field(relativePath),
  ai: field(
    record({
      mcp: field(mcp),
      mcpPrompt: field(fc.oneof(relativePath, record({ title: oddString, zh: field(promptSide), en: field(promptSide) }))),
      mcpServers: field(fc.oneof(fc.boolean(), fc.array(oddString, { maxLength: 3 }))),
      prompts: field(fc.oneof(fc.boolean(), fc.array(oddString, { maxLength: 3 }))),
      config: field(relativePath),
    }),
  ),
});
const manifestObject = fc
  .tuple(
    record({
      manifestVersion: field(fc.constant(1)),
      id: field(fc.constantFrom('com.example.fuzz', 'constructor', '__proto__', '-bad', 'a'.repeat(200))),
      name: field(oddString),
      version: field(fc.constantFrom('1.0.0', '')),
      providerAppId: field(fc.constantFrom('chatos', 'git_app', 'constructor', 'a/b')),
      backend: field(record({ entry: relativePath })),
      apps: field(fc.array(app, { maxLength: 3 })),
    }),
    dictionary(anyJson),
  )
  .map(([known, extra]) => Object.assign(extra, known));

/** What is written as plugin.json: mostly a manifest-like object, sometimes text that is barely JSON, or nested past any recursion. */
const manifestText = fc.oneof(
  { weight: 8, arbitrary: manifestObject.map((value) => JSON.stringify(value)) },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.string({ maxLength: 40 }),
      manifestObject.map((value) => JSON.stringify(value).slice(0, -1)),
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 30_000 })
      .map((depth) => `{"id":"deep","apps":[{"id":"main","name":"m","entry":"index.mjs","ai":{"mcp":{"url":"http://127.0.0.1:1/mcp","callMeta":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}}]}`),
  },
);

type Segment = string | number;

/** `apps[0].ai["a.b"]` → ['apps', 0, 'ai', 'a.b']: the inverse of formatJsonPath. */
function parseJsonPath(text: string): Segment[] {
  const segments: Segment[] = [];
  const token = /\.?([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  while (token.lastIndex < text.length) {
    const at = token.lastIndex;
    const match = token.exec(text);
    if (!match) throw new Error(`"${text}" is not a JSON path (stuck at ${at})`);
    segments.push(match[1] ?? (match[2] !== undefined ? Number(match[2]) : (JSON.parse(match[3]!) as string)));
  }
  return segments;
}

/** Whether `segments` names a place in `root`, by own keys and array indexes only. */
function exists(root: unknown, segments: readonly Segment[]): boolean {
  let current = root;
  for (const segment of segments) {
    if (Array.isArray(current) && typeof segment === 'number' && segment < current.length) current = current[segment];
    else if (current !== null && typeof current === 'object' && !Array.isArray(current) && typeof segment === 'string' && Object.hasOwn(current, segment))
      current = (current as Record<string, unknown>)[segment];
    else return false;
  }
  return true;
}

// The file's own folder, not tempDir(): that one goes after the first test, and every scan below needs it.
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-fuzz-'));
const extra = path.join(home, 'extra');
fs.mkdirSync(extra, { recursive: true });
const host = createHost({
  home: path.join(home, 'home'),
  appRoot: path.join(home, 'app'),
  builtinPluginsDir: path.join(home, 'builtin'),
  defaultsDir: path.join(home, 'defaults'),
  extraPluginRoots: [extra],
  sessionRoot: home,
  projectRoot: home,
});
afterAll(() => {
  host.dispose();
  fs.rmSync(home, { recursive: true, force: true });
});

let run = 0;
/** Writes one plugin folder (a fresh one each run, the last one removed) and scans every root, as the host does. */
function scanManifest(text: string): { manifestFile: string; problems: Problem[] } {
  fs.rmSync(path.join(extra, `p${run}`), { recursive: true, force: true });
  const dir = path.join(extra, `p${++run}`);
  fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.mjs'), 'export function mount() {}\n');
  fs.writeFileSync(path.join(dir, 'prompt.md'), 'a prompt\n');
  fs.writeFileSync(path.join(dir, 'ai.yaml'), 'mcpServers: [a, constructor]\nprompts: true\n__proto__: 1\n');
  execFileSync('mkfifo', [path.join(dir, 'fifo')]);
  const manifestFile = path.join(dir, 'plugin.json');
  fs.writeFileSync(manifestFile, text);
  const result = host.plugins.catalog.rescan();
  return { manifestFile, problems: result.plugins.find((p) => p.dir === dir)?.problems ?? [] };
}

describe('plugin.json, over arbitrary manifests', () => {
  it('names a bad value under a key called after an Object.prototype member with a text hint (cases the property found)', () => {
    const manifest = {
      manifestVersion: 1,
      id: 'com.example.proto',
      name: 'p',
      version: '1',
      apps: [{ id: 'main', name: 'm', entry: { path: 'index.mjs' }, ai: { mcp: { entry: 'index.mjs', env: { constructor: 1 }, permissions: { toString: 'sometimes' } } } }],
    };
    const { problems } = scanManifest(JSON.stringify(manifest));
    expect(problems.map((p) => [p.code, p.path, p.message])).toEqual([
      ['SCHEMA_INVALID_VALUE', 'apps[0].entry.type', 'is required: it must be "module"'],
      ['SCHEMA_INVALID_UNION', 'apps[0].ai.mcp.env.constructor', 'must be a string or { "secret": NAME } (got number 1)'],
      ['SCHEMA_INVALID_VALUE', 'apps[0].ai.mcp.permissions.toString', 'must be "read" or "write" or "confirm" or "navigate", not string "sometimes"'],
    ]);
    for (const problem of problems) expect(ProblemSchema.parse(problem)).toEqual(problem);
  });

  it('never crashes or hangs the scan, and every problem names its file and a JSON path that exists in what was written', () => {
    fc.assert(
      fc.property(manifestText, (text) => {
        const { manifestFile, problems } = scanManifest(text);
        let written: unknown;
        try {
          written = JSON.parse(text);
        } catch {
          written = undefined;
        }
        for (const problem of problems) {
          // Every field of the right type: a hint looked up by an outside key once came back as a function.
          expect(ProblemSchema.parse(problem)).toEqual(problem);
          expect(path.isAbsolute(problem.file), problem.file).toBe(true);
          if (problem.file !== manifestFile || problem.path === '') continue;
          expect(written, `${problem.code} at ${problem.path} in a file that is not JSON`).not.toBeUndefined();
          const segments = parseJsonPath(problem.path);
          // A missing required field is named at its place: its parent must exist, itself not.
          const missing = /is required/.test(problem.message);
          expect(exists(written, missing ? segments.slice(0, -1) : segments), `${problem.code} at ${problem.path}: ${problem.message}`).toBe(true);
        }
      }),
      { numRuns: 250, seed: 20260113 },
    );
  }, 300_000);
});
