import * as fs from 'node:fs';
import * as path from 'node:path';
import { Document, isMap, isScalar, parseDocument, visit, YAMLMap, type Node } from 'yaml';
import type { Problem } from '../../../shared/problems.js';
import { formatProblem } from '../../../shared/problemText.js';
import type { Logger } from '../../ports.js';
import { readProblem, readRegularText } from '../../files/readRegularFile.js';
import { loadYaml } from '../../problems/yamlLoader.js';
import { canonicalJson } from '../../store/canonicalJson.js';
import { writeFileAtomic } from '../../store/dbFile.js';
import { withFileLock } from '../../store/dbLock.js';
import { messageOf } from '../../store/storeError.js';
import { MAX_MCP_CONFIG_BYTES, parseMcpConfig, type McpConfigLoad } from '../config/mcpConfigLoader.js';
import { McpAdminError } from './mcpAdminError.js';

/**
 * The user's mcp.yaml as the MCP servers page and `chatos mcp` change it.
 *
 * Edits go through the `yaml` package's Document API, so every comment,
 * blank line and the order of servers and keys stay as the user wrote them;
 * only the nodes an edit touches change. Each edit is one read-modify-write
 * under the same inter-process lock the admin DB uses (the app and the CLI
 * may edit at once), checked before it is written: the new text must load
 * with the loader every process uses (js-yaml, the mcp.yaml schema), the
 * servers the edit did not touch must read exactly as before, and the
 * caller's own check (the edited server loads) must pass. Only then is the
 * file replaced, atomically (temp file, fsync, rename), so a refused or
 * failed edit leaves it as it was.
 */

export type LoadedConfig = Extract<McpConfigLoad, { kind: 'loaded' }>;

/** What a new mcp.yaml starts with: it says where it came from and that hand edits are welcome. */
const NEW_FILE = `# ChatOS MCP servers (docs/reference/mcp-yaml.md). Edit by hand, on the MCP servers page or with \`chatos mcp\`:
# comments and order are kept either way.
version: 1
servers: {}
`;

export interface McpYamlRead {
  exists: boolean;
  text: string;
  load: Exclude<McpConfigLoad, { kind: 'missing' }>;
}

export interface EditPlan<T> {
  /** Changes the document; returns the names of the servers it touched (added, changed or removed) and its result. */
  change(doc: Document.Parsed, current: LoadedConfig): { touched: string[]; result: T };
  /** Refuses the new file (throws) when what the edit meant does not load, e.g. the edited server is rejected. */
  check?(next: LoadedConfig, result: T): void;
}

export class McpYamlFile {
  constructor(
    readonly file: string,
    private readonly hostEnv: NodeJS.ProcessEnv,
    private readonly logger: Logger,
  ) {}

  /** The file as it is now (a missing file reads as an empty one). */
  read(): McpYamlRead {
    const read = readRegularText(this.file, { maxBytes: MAX_MCP_CONFIG_BYTES });
    if (!read.ok && read.code !== 'FILE_NOT_FOUND') {
      const problem = readProblem(read, this.file);
      throw new McpAdminError('MCP_CONFIG_UNREADABLE', `cannot read ${this.file}: ${problem.message}`, problem.hint, [], [problem]);
    }
    const exists = read.ok;
    const text = read.ok && read.text.trim() !== '' ? read.text : NEW_FILE;
    return { exists, text, load: parseMcpConfig(text, this.file, this.hostEnv) };
  }

  /** One checked read-modify-write under the lock; returns the plan's result. */
  async edit<T>(plan: EditPlan<T>): Promise<T> {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    return withFileLock(this.file, this.logger, () => {
      const { text, load } = this.read();
      if (load.kind === 'rejected') throw brokenFile(this.file, load.problems);
      const doc = parseDocument(text, { keepSourceTokens: false });
      if (doc.errors.length) throw brokenFile(this.file, [], doc.errors[0]!.message);
      keepTrailingCommentTight(doc, text);
      const { touched, result } = plan.change(doc, load);
      const nextText = doc.toString({ lineWidth: 0, indent: indentOf(text) });
      const next = parseMcpConfig(nextText, this.file, this.hostEnv);
      if (next.kind !== 'loaded') {
        // Our own edit made the file unreadable: a bug, never written.
        throw new McpAdminError(
          'MCP_CONFIG_WRITE_FAILED',
          `the edited ${this.file} would not load (${next.problems.map(formatProblem).join('; ')}); nothing was written`,
          'report this as a ChatOS bug, and make the change by hand meanwhile',
        );
      }
      checkUntouched(text, nextText, touched, this.file);
      plan.check?.(next, result);
      try {
        writeFileAtomic(this.file, Buffer.from(nextText));
      } catch (error) {
        throw new McpAdminError(
          'MCP_CONFIG_WRITE_FAILED',
          `could not write ${this.file}: ${messageOf(error)}; it is as it was`,
          'make the data home writable and free some disk space, then try again',
        );
      }
      return result;
    });
  }
}

function brokenFile(file: string, problems: Problem[], detail?: string): McpAdminError {
  const first = problems[0];
  const why = first ? formatProblem(first) : (detail ?? 'it does not parse');
  return new McpAdminError(
    'MCP_CONFIG_BROKEN',
    `${file} has errors, so it is not edited until they are fixed: ${why}`,
    first?.hint ?? `fix ${file} by hand (the Problems page lists what is wrong), then try again`,
    [],
    problems,
  );
}

/** Every server the edit did not name reads exactly as before (nothing lost, nothing reordered into a new meaning). */
function checkUntouched(before: string, after: string, touched: readonly string[], file: string): void {
  const serversOf = (text: string) => {
    const value = loadYaml(text) as { servers?: Record<string, unknown> } | null;
    return new Map(Object.entries(value?.servers ?? {}));
  };
  const old = serversOf(before);
  const now = serversOf(after);
  const skip = new Set(touched);
  for (const [name, entry] of old) {
    if (skip.has(name)) continue;
    if (!now.has(name) || canonicalJson(now.get(name)) !== canonicalJson(entry)) {
      throw new McpAdminError(
        'MCP_CONFIG_WRITE_FAILED',
        `editing ${file} would have changed server "${name}", which the edit did not name; nothing was written`,
        'report this as a ChatOS bug, and make the change by hand meanwhile',
      );
    }
  }
}

/**
 * The `servers:` map of the document, made a block map if it is missing,
 * empty (`servers:` or `servers: {}`) or not a map the loader would accept.
 */
export function serversMap(doc: Document.Parsed): YAMLMap {
  const servers = doc.get('servers', true);
  if (isMap(servers)) {
    if (servers.items.length === 0) servers.flow = false;
    return servers;
  }
  const map = new YAMLMap();
  doc.set('servers', map);
  return map;
}

/**
 * A node for `value` that js-yaml (the loader) reads back as the same value.
 * The `yaml` package writes YAML 1.2, where `2024-01-01` or `~x` may be left
 * plain; js-yaml would read the first as a date. Every string js-yaml would
 * read as anything but itself is double-quoted.
 */
export function loaderSafeNode(doc: Document, value: unknown): Node {
  const node = doc.createNode(value) as Node;
  visit(node, {
    Scalar(_key, scalar) {
      if (typeof scalar.value === 'string' && !readsAsItself(scalar.value)) scalar.type = 'QUOTE_DOUBLE';
    },
    Map(_key, map) {
      // `{ env: NAME }` and `{ secret: NAME }` read best on one line, as docs/reference/mcp-yaml.md writes them.
      const only = map.items.length === 1 ? map.items[0] : undefined;
      if (only && isScalar(only.key) && (only.key.value === 'env' || only.key.value === 'secret') && isScalar(only.value)) map.flow = true;
    },
    Pair(_key, pair) {
      if (isScalar(pair.key) && typeof pair.key.value === 'string' && !readsAsItself(pair.key.value)) pair.key.type = 'QUOTE_DOUBLE';
    },
  });
  return node;
}

function readsAsItself(text: string): boolean {
  try {
    return loadYaml(text) === text;
  } catch {
    return false;
  }
}

/** The file's own indentation step (that of the first key under `servers:`), so a 4-space file stays one. */
function indentOf(text: string): number {
  const match = /^servers\s*:[^\n]*\n(?:[ \t]*(?:#[^\n]*)?\n)*( +)\S/m.exec(text);
  const width = match?.[1]?.length ?? 2;
  return width >= 2 && width <= 8 ? width : 2;
}

/**
 * The yaml package prints a document's closing comment after a blank line;
 * a file whose closing comment follows its last line directly keeps it so,
 * as a comment of the top-level map.
 */
function keepTrailingCommentTight(doc: Document.Parsed, text: string): void {
  if (!doc.comment || !isMap(doc.contents) || doc.contents.comment) return;
  if (!/\n[ \t]*[^#\s][^\n]*\n(?:[ \t]*#[^\n]*(?:\n|$))+$/.test(text)) return;
  doc.contents.comment = doc.comment;
  doc.comment = null;
}
