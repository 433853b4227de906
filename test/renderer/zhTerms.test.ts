import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/tempDir.js';

/** The Chinese texts use one word for each thing the window names (the issue found "MCP 服务" beside "MCP 服务器"). */

// The texts the first screen loads, and those that arrive with the part that shows them.
const dirs = ['resources', 'lazy'].map((dir) => path.join(repoRoot, 'renderer/src/i18n', dir));

/** Every resource file's path. */
function resourcePaths(): string[] {
  return dirs.flatMap((dir) =>
    fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.ts'))
      .map((name) => path.join(dir, name)),
  );
}

async function zhTexts(): Promise<[string, string][]> {
  const loaded = await Promise.all(resourcePaths().map((file) => import(file) as Promise<{ default: { zh: Record<string, string> } }>));
  return loaded.flatMap((file) => Object.entries(file.default.zh));
}

/** Every resource file: its zh and en texts, by file name. */
async function resourceFiles(): Promise<[string, { zh: Record<string, string>; en: Record<string, string> }][]> {
  return Promise.all(
    resourcePaths().map(
      async (file) =>
        [path.basename(file), ((await import(file)) as { default: { zh: Record<string, string>; en: Record<string, string> } }).default] as [
          string,
          { zh: Record<string, string>; en: Record<string, string> },
        ],
    ),
  );
}

/**
 * The codes the host API's errors carry: the `…Code` unions of the error
 * classes src/api/apiErrors.ts maps (read from their source, following a
 * union that names another, as GatewayErrorCode names AccessCode).
 */
function apiErrorCodes(): Set<string> {
  const unions = new Map<string, { codes: string[]; refs: string[] }>();
  const files = (fs.readdirSync(path.join(repoRoot, 'src'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
  const declared = new Map<string, string[]>();
  for (const file of files) {
    const text = fs
      .readFileSync(path.join(repoRoot, 'src', file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/[^\n]*/g, '');
    const names: string[] = [];
    for (const [, name, body] of text.matchAll(/export type (\w*Code) =([^;]+);/g)) {
      unions.set(name!, { codes: [...body!.matchAll(/'([A-Z][A-Z_]+)'/g)].map((m) => m[1]!), refs: [...body!.matchAll(/\b([A-Z]\w*Code)\b/g)].map((m) => m[1]!) });
      names.push(name!);
    }
    declared.set(path.join('src', file), names);
  }
  const apiErrors = fs.readFileSync(path.join(repoRoot, 'src/api/apiErrors.ts'), 'utf8');
  // The error classes come through the errors facade: its re-exports of the classes apiErrors.ts imports name the files that declare them.
  const reExported = (file: string, names: string[]) =>
    [...fs.readFileSync(path.join(repoRoot, file), 'utf8').matchAll(/^export \{([^}]*)\} from '(\.[^']+)\.js';/gm)]
      .filter((m) => m[1]!.split(',').some((name) => names.includes(name.trim())))
      .map((m) => path.join(path.dirname(file), `${m[2]}.ts`));
  const imported = [...apiErrors.matchAll(/import \{([^}]*)\} from '\.\.\/(core\/[^']+)\.js'/g)].flatMap((m) => {
    const file = path.join('src', `${m[2]}.ts`);
    return [
      file,
      ...reExported(
        file,
        m[1]!.split(',').map((name) => name.trim()),
      ),
    ];
  });
  const codes = new Set<string>([...apiErrors.matchAll(/readonly code: ([^,]+),/g)].flatMap((m) => [...m[1]!.matchAll(/'([A-Z][A-Z_]+)'/g)].map((c) => c[1]!)));
  const add = (name: string) => {
    const union = unions.get(name);
    if (!union) return;
    union.codes.forEach((code) => codes.add(code));
    union.refs.filter((ref) => ref !== name).forEach(add);
  };
  imported.flatMap((file) => declared.get(file) ?? []).forEach(add);
  expect(codes.size).toBeGreaterThan(60);
  return codes;
}

/**
 * The codes the core's problems (and its other coded notes) carry, read from
 * src: each `code: 'X'` or `code = 'X'`, each code a problem helper is given
 * (`warn('X', …)`, `problem('X', …)`), and the schema codes zodProblems.ts
 * makes of zod's issue codes (`SCHEMA_<issue code>`).
 */
function problemCodes(): Set<string> {
  const files = (fs.readdirSync(path.join(repoRoot, 'src'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
  const codes = new Set<string>();
  for (const file of files) {
    const text = fs.readFileSync(path.join(repoRoot, 'src', file), 'utf8');
    for (const [, code] of text.matchAll(/\bcode(?::| =) '([A-Z][A-Z_]+)'/g)) codes.add(code!);
    for (const [, code] of text.matchAll(/\b(?:warn|problem)\('([A-Z][A-Z_]+)'/g)) codes.add(code!);
  }
  // zod 4's issue codes, as zodProblems.ts names them.
  const zodIssues = ['invalid_type', 'too_big', 'too_small', 'invalid_format', 'not_multiple_of', 'unrecognized_keys', 'invalid_union', 'invalid_key', 'invalid_element', 'invalid_value', 'custom'];
  for (const issue of zodIssues) codes.add(`SCHEMA_${issue.toUpperCase()}`);
  codes.add('MANIFEST_VERSION_UNSUPPORTED');
  expect(codes.size).toBeGreaterThan(80);
  return codes;
}

/** The texts of the host's codes: its errors' (first load) and its problems' (loaded by the Problems page). */
async function codeTexts(): Promise<{ zh: Record<string, string>; en: Record<string, string> }> {
  const files = (await resourceFiles()).filter(([name]) => name === 'hostErrors.ts' || name === 'problemCodes.ts').map(([, texts]) => texts);
  expect(files.length).toBe(2);
  return { zh: Object.assign({}, ...files.map((f) => f.zh)), en: Object.assign({}, ...files.map((f) => f.en)) };
}

describe('the two languages', () => {
  it('have the same keys in every resource file, and no key is defined by two files', async () => {
    const seen = new Map<string, string>();
    for (const [name, texts] of await resourceFiles()) {
      const zh = Object.keys(texts.zh).sort();
      const en = Object.keys(texts.en).sort();
      expect({ file: name, onlyZh: zh.filter((key) => !Object.hasOwn(texts.en, key)), onlyEn: en.filter((key) => !Object.hasOwn(texts.zh, key)) }).toEqual({ file: name, onlyZh: [], onlyEn: [] });
      for (const key of zh) {
        expect(seen.get(key), `${key} is in ${name} and ${seen.get(key)}`).toBeUndefined();
        seen.set(key, name);
      }
    }
  });

  it('has a Chinese text for every host code the window translates, and no English words left in it', async () => {
    const hostErrors = await codeTexts();
    const codes = Object.keys(hostErrors.zh).filter((key) => key.startsWith('hostError.'));
    expect(codes.length).toBeGreaterThan(20);
    // Only names (ChatOS, MCP, ID, and the formats, protocols and API a user picks by name) may stay in Latin letters in a Chinese text.
    const english = Object.entries(hostErrors.zh).filter(([, text]) => /\b(?!ChatOS\b|MCP\b|ID\b|OpenAI\b|Markdown\b|HTML\b|PDF\b|JSON\b|YAML\b|http\b|https\b)[A-Za-z]{3,}\b/.test(text));
    expect(english).toEqual([]);
  });

  it('has a Chinese text for every code a problem of the core can carry (the Problems page says none in English)', async () => {
    const hostErrors = await codeTexts();
    const missing = [...problemCodes()].filter((code) => !Object.hasOwn(hostErrors.zh, `hostError.${code}`));
    expect(missing).toEqual([]);
  });

  it('has a Chinese text for every code an error of the host API can carry', async () => {
    const hostErrors = (await resourceFiles()).find(([name]) => name === 'hostErrors.ts')![1];
    const missing = [...apiErrorCodes()].filter((code) => !Object.hasOwn(hostErrors.zh, `hostError.${code}`));
    expect(missing).toEqual([]);
  });
});

describe('the Chinese terms', () => {
  it('call an MCP server "MCP 服务器" everywhere', async () => {
    const texts = await zhTexts();
    expect(texts.length).toBeGreaterThan(100);
    expect(texts.filter(([, text]) => /MCP 服务(?!器)/.test(text))).toEqual([]);
  });
});
