import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/**
 * The docs stay findable: every relative link in the Markdown files points
 * to a file that exists (and to a heading it has), every code comment that
 * cites a page of docs/ cites one that exists, no code cites the design
 * notes or specification documents that are not in the repository, and the
 * README stays short. Run on the repository, and on small trees that break
 * each rule once, so a check that stops matching fails too.
 */

/** A page another branch writes (issue 26: the refactor's architecture page); a link to it may go ahead of it, never an anchor into it. */
const WRITTEN_ON_ANOTHER_BRANCH = new Set(['docs/contributing/architecture.md']);

const README_MAX_LINES = 320;

/** Folders never read: installed packages, build output, test data that is broken on purpose. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', 'test-output', 'release']);
const SKIPPED_PATHS = new Set(['test/fixtures']);

/** Where code lives whose comments may cite docs. */
const CODE_ROOTS = ['src', 'renderer/src', 'electron', 'plugins', 'runtime', 'scripts', 'test', 'bin', 'templates', 'defaults', '.ci', '.dependency-cruiser.cjs', 'knip.jsonc'];
const CODE_FILE = /\.(ts|tsx|mts|cts|js|mjs|cjs|json|jsonc|ya?ml)$|^run$/;

const DOC_CITATION = /\bdocs\/[\w./-]*?\.md(?:#[\w-]+)?/g;
/** Documents outside the repository, cited by number or name. */
const OUTSIDE_CITATION = /\bseeds? 0\d\d\b|\bDESIGN\.md\b|\bseeds\//i;

function walk(root: string, dir: string, keep: (rel: string) => boolean, out: string[] = []): string[] {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return out;
  if (fs.statSync(full).isFile()) return keep(dir) ? [...out, dir] : out;
  for (const entry of fs.readdirSync(full, { withFileTypes: true })) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name) && !SKIPPED_PATHS.has(rel)) walk(root, rel, keep, out);
    } else if (entry.isFile() && keep(rel)) out.push(rel);
  }
  return out;
}

/** Lines outside fenced code blocks, with their numbers. */
function proseLines(text: string): { line: string; number: number }[] {
  const lines: { line: string; number: number }[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((line, i) => {
    const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (opener && opener[0] === fence[0] && opener.length >= fence.length) fence = undefined;
      return;
    }
    if (opener) fence = opener;
    else lines.push({ line, number: i + 1 });
  });
  return lines;
}

/** GitHub's heading ids: lower case, punctuation dropped, each space a hyphen, repeats numbered. */
function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const { line } of proseLines(markdown)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const text = heading.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    ids.add(count === 0 ? base : `${base}-${count}`);
  }
  return ids;
}

/** Relative link targets of a Markdown file (inline links, images and reference definitions), code spans left out. */
function linkTargets(markdown: string): { target: string; line: number }[] {
  const found: { target: string; line: number }[] = [];
  for (const { line, number } of proseLines(markdown)) {
    const prose = line.replace(/(`+)[^`]*?\1/g, '');
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.push({ target: match[1]!, line: number });
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(prose);
    if (definition) found.push({ target: definition[1]!, line: number });
  }
  return found.filter(({ target }) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** Why `target` (a repo-relative path, maybe with an anchor) does not resolve, or undefined when it does. */
function brokenTarget(root: string, file: string, anchor: string | undefined): string | undefined {
  const full = path.join(root, file);
  if (!fs.existsSync(full)) return WRITTEN_ON_ANOTHER_BRANCH.has(file) && anchor === undefined ? undefined : `${file} does not exist`;
  if (anchor === undefined) return undefined;
  if (!file.endsWith('.md') || !fs.statSync(full).isFile()) return `${file} is not a Markdown file, so it has no #${anchor}`;
  return headingIds(fs.readFileSync(full, 'utf8')).has(anchor) ? undefined : `${file} has no heading #${anchor}`;
}

function markdownFiles(root: string): string[] {
  return walk(root, '', (rel) => rel.endsWith('.md'));
}

function brokenLinks(root: string): string[] {
  const broken: string[] = [];
  for (const file of markdownFiles(root)) {
    for (const { target, line } of linkTargets(fs.readFileSync(path.join(root, file), 'utf8'))) {
      const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
      const resolved = pathPart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURIComponent(pathPart)));
      const why = resolved.startsWith('../') ? `${resolved} is outside the repository` : brokenTarget(root, resolved.replace(/\/$/, ''), anchor || undefined);
      if (why) broken.push(`${file}:${line}: (${target}) ${why}`);
    }
  }
  return broken;
}

function codeFiles(root: string): string[] {
  return CODE_ROOTS.flatMap((dir) => walk(root, dir, (rel) => CODE_FILE.test(path.posix.basename(rel)) && rel !== 'test/scripts/docsLinks.test.ts'));
}

/** Every line of code, with where it is. */
function codeLines(root: string): { at: string; text: string }[] {
  return codeFiles(root).flatMap((file) =>
    fs
      .readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .map((text, i) => ({ at: `${file}:${i + 1}`, text })),
  );
}

function brokenCitations(root: string): string[] {
  return codeLines(root).flatMap(({ at, text }) =>
    [...text.matchAll(DOC_CITATION)].flatMap(([citation]) => {
      const [page, anchor] = citation.split('#', 2) as [string, string | undefined];
      const why = brokenTarget(root, page, anchor);
      return why ? [`${at}: ${citation}: ${why}`] : [];
    }),
  );
}

function outsideCitations(root: string): string[] {
  return codeLines(root)
    .filter(({ text }) => OUTSIDE_CITATION.test(text))
    .map(({ at, text }) => `${at}: ${text.trim()}`);
}

function readmeLines(root: string): number {
  return fs.readFileSync(path.join(root, 'README.md'), 'utf8').replace(/\n$/, '').split('\n').length;
}

function tree(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const sound = {
  'README.md': '# Tool\n\nSee [using](docs/using.md#first-steps), [the `mcp.yaml` file](docs/using.md#the-mcpyaml-file) and [here](#tool).\n',
  'docs/using.md': '# Using\n\n## First steps\n\n## The `mcp.yaml` file\n\n```md\n[not a link](missing.md)\n```\n\nBack to [the README](../README.md), or `[code](nowhere.md)`.\n',
  'src/core/rule.ts': '// docs/using.md#first-steps: the rule this follows.\nexport const rule = 1;\n',
};

describe('the docs checks', () => {
  it('pass a tree whose links, anchors and citations all resolve', () => {
    const root = tree(sound);
    expect({ links: brokenLinks(root), citations: brokenCitations(root), outside: outsideCitations(root) }).toEqual({ links: [], citations: [], outside: [] });
  });

  it('name a link to a missing file, a missing anchor and a link out of the repository', () => {
    const root = tree({
      ...sound,
      'docs/using.md': `${sound['docs/using.md']}\n[gone](gone.md) [no such heading](../README.md#nothing) [out](../../etc/passwd)\n`,
    });
    const broken = brokenLinks(root);
    expect(broken).toHaveLength(3);
    expect(broken[0]).toMatch(/^docs\/using\.md:\d+: \(gone\.md\) docs\/gone\.md does not exist$/);
    expect(broken[1]).toMatch(/README\.md has no heading #nothing$/);
    expect(broken[2]).toMatch(/is outside the repository$/);
  });

  it('number repeated headings as GitHub does', () => {
    expect([...headingIds('# A\n## Notes\n## Notes\n### `chatos trust` / `chatos untrust`\n## _meta\n')]).toEqual(['a', 'notes', 'notes-1', 'chatos-trust--chatos-untrust', '_meta']);
  });

  it('name a comment citing a page or an anchor that does not exist', () => {
    const root = tree({ ...sound, 'src/core/other.ts': '// docs/rules/gone.md and docs/using.md#nowhere\nexport const x = 1;\n' });
    expect(brokenCitations(root)).toEqual([
      'src/core/other.ts:1: docs/rules/gone.md: docs/rules/gone.md does not exist',
      'src/core/other.ts:1: docs/using.md#nowhere: docs/using.md has no heading #nowhere',
    ]);
  });

  it('name code that cites a document outside the repository', () => {
    const root = tree({ ...sound, 'plugins/x/engine.mjs': '// The patch engine (seed 004).\n', 'src/cli/out.ts': '/** see DESIGN.md "CLI contract" */\n' });
    expect(outsideCitations(root)).toEqual(['src/cli/out.ts:1: /** see DESIGN.md "CLI contract" */', 'plugins/x/engine.mjs:1: // The patch engine (seed 004).']);
  });

  it('let a link reach a page another branch writes, but no anchor in it', () => {
    const root = tree({ ...sound, 'docs/x.md': '[arch](contributing/architecture.md) [part](contributing/architecture.md#layers)\n' });
    expect(brokenLinks(root)).toEqual(['docs/x.md:1: (contributing/architecture.md#layers) docs/contributing/architecture.md does not exist']);
  });
});

describe('the repository', () => {
  it('has no relative link in README.md or docs/ to a missing file or heading', () => {
    expect(brokenLinks(repoRoot)).toEqual([]);
  });

  it('cites only docs pages and headings that exist in its code comments', () => {
    expect(brokenCitations(repoRoot)).toEqual([]);
  });

  it('cites no document outside the repository (a rule is cited by its page in docs/rules/)', () => {
    expect(outsideCitations(repoRoot)).toEqual([]);
  });

  it(`keeps README.md at most ${README_MAX_LINES} lines (the rest belongs in docs/)`, () => {
    expect(readmeLines(repoRoot)).toBeLessThanOrEqual(README_MAX_LINES);
  });
});
