import * as path from 'node:path';
import { createScanner, parseTree, printParseErrorCode, SyntaxKind, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import type { ImportEntry, ImportFormat, ImportRun, ImportValueView, McpServerInputParsed, NamedValueInput, ValueInput } from '../../../shared/mcpAdmin.js';
import { MCP_SERVER_NAME_PATTERN } from '../../../shared/mcpAdmin.js';
import type { Problem } from '../../../shared/problems.js';
import { quotedWord, visibleInline } from '../../../shared/visibleText.js';
import { lineColumnAt } from '../../problems/textFiles.js';
import { changesCode, whyChangesCode } from '../../process/codeVariables.js';
import { inheritedBeside } from '../../process/serverEnvironment.js';
import { idSuggestion } from '../config/mcpConfigLoader.js';
import { checkServerUrl, unsupportedTransport } from '../config/transports.js';
import { launchLine } from './serverEntry.js';

/**
 * Reads the MCP server lists other clients keep, into servers for mcp.yaml
 * (docs/rules/settings-server.md#categories: import). Pure: the text and what mcp.yaml already has go
 * in, a plan comes out; nothing is read or written.
 *
 * - `mcpServers` (Claude Desktop's claude_desktop_config.json, Cursor's
 *   mcp.json, Cline's cline_mcp_settings.json): `command`/`args`/`env`, or
 *   `url` (+ `headers`, and Cline's `type`), `disabled`, Cline's `timeout`
 *   in seconds.
 * - `servers` (VS Code's mcp.json, or `mcp.servers` in its settings.json):
 *   `type` stdio | http | sse, `command`/`args`/`env`/`cwd`, `url`/`headers`.
 *
 * Files may hold comments and trailing commas (VS Code's do). Values may be
 * `${env:NAME}` (copied from the host's environment, as mcp.yaml's
 * `{ env: NAME }`), VS Code's `${input:id}` (read from the host variable
 * ID), `${userHome}` and `${workspaceFolder}` (the folder holding
 * `.vscode/`). What ChatOS cannot run is refused with the reason: the old
 * HTTP+SSE transport, WebSocket urls, a value mixing text with a `${…}`.
 */

export interface ImportContext {
  /** The imported file's path, if it came from one: VS Code's `${workspaceFolder}` is the folder holding its `.vscode/`. */
  fileName?: string;
  /** mcp.yaml's servers now: name → how it starts. */
  existing: ReadonlyMap<string, string>;
  homeDir: string;
  /** Keep literal values that look like secrets in the key store (as `{ kind: 'secret', value }`); otherwise they are written as text. */
  storeSecrets: boolean;
}

/** One imported server: the plan's entry, and for those that can be added, the input that adds it. */
export interface ImportCandidate {
  entry: ImportEntry;
  input?: McpServerInputParsed;
}

export interface ImportReading {
  format?: ImportFormat;
  candidates: ImportCandidate[];
  problems: Problem[];
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** A JSON tree as values, every object without a prototype: a `"__proto__"` key is a plain key, never a prototype to inherit `command` from. */
function valueOf(node: JsonNode): Json {
  switch (node.type) {
    case 'object': {
      const out = Object.create(null) as Record<string, Json>;
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (key && value) out[String(key.value)] = valueOf(value);
      }
      return out;
    }
    case 'array':
      return (node.children ?? []).map(valueOf);
    default:
      return node.value as Json;
  }
}

const isObject = (value: unknown): value is Record<string, Json> => value !== null && typeof value === 'object' && !Array.isArray(value);
const own = (object: Record<string, Json>, key: string): Json | undefined => (Object.hasOwn(object, key) ? object[key] : undefined);

function problem(code: string, message: string, hint: string, file: string, at?: { line: number; column: number }): Problem {
  return { severity: 'error', code, file, path: '', ...(at ?? {}), message, hint };
}

/** A client's config nests five or six levels; the parser and `valueOf` recurse per level, so a deeper text is refused before either runs. */
const MAX_IMPORT_DEPTH = 64;

/** The offset of the first `{` or `[` nested deeper than `max`, found by the scanner (which does not recurse), or undefined. */
function firstTooDeep(text: string, max: number): number | undefined {
  const scanner = createScanner(text, true);
  let depth = 0;
  for (let token = scanner.scan(); token !== SyntaxKind.EOF; token = scanner.scan()) {
    if (token === SyntaxKind.OpenBraceToken || token === SyntaxKind.OpenBracketToken) {
      if (++depth > max) return scanner.getTokenOffset();
    } else if (token === SyntaxKind.CloseBraceToken || token === SyntaxKind.CloseBracketToken) {
      depth = Math.max(0, depth - 1);
    }
  }
  return undefined;
}

/** Reads `text` (JSON with comments) into a plan against mcp.yaml's servers. */
export function readImport(text: string, context: ImportContext): ImportReading {
  const file = context.fileName ?? '(pasted text)';
  const tooDeep = firstTooDeep(text, MAX_IMPORT_DEPTH);
  if (tooDeep !== undefined) {
    const at = lineColumnAt(text, tooDeep);
    return {
      candidates: [],
      problems: [
        problem(
          'IMPORT_TOO_DEEP',
          `nested more than ${MAX_IMPORT_DEPTH} levels deep (line ${at.line}, column ${at.column}): no client's config is`,
          "give the client's config file as it is: claude_desktop_config.json, .vscode/mcp.json, ~/.cursor/mcp.json or cline_mcp_settings.json",
          file,
          at,
        ),
      ],
    };
  }
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length || !tree) {
    const first = errors[0];
    const at = first ? lineColumnAt(text, first.offset) : undefined;
    return {
      candidates: [],
      problems: [
        problem(
          'IMPORT_NOT_JSON',
          `not a JSON config${at ? ` (line ${at.line}, column ${at.column}: ${printParseErrorCode(first!.error)})` : ''}`,
          "give the client's config file as it is: claude_desktop_config.json, .vscode/mcp.json, ~/.cursor/mcp.json or cline_mcp_settings.json",
          file,
          at,
        ),
      ],
    };
  }
  const root = valueOf(tree);
  const found = serverList(root);
  if (!found) {
    return {
      candidates: [],
      problems: [
        problem(
          'IMPORT_NO_SERVERS',
          'found no server list: neither "mcpServers" (Claude Desktop, Cursor, Cline) nor "servers" (VS Code mcp.json)',
          'give the file that lists the servers, e.g. claude_desktop_config.json or .vscode/mcp.json',
          file,
        ),
      ],
    };
  }
  const taken = new Set(context.existing.keys());
  const inFile = new Set<string>();
  const candidates = Object.keys(found.servers).map((sourceName) => {
    const candidate = readServer(sourceName, found.servers[sourceName], found.format, context, file);
    if (candidate.input) {
      // Two imported names that become one (made valid): the second is renamed.
      let { name } = candidate.entry;
      if (inFile.has(name)) {
        name = freeName(name, (n) => inFile.has(n) || taken.has(n));
        candidate.entry.notes.push({ code: 'IMPORT_RENAMED', message: `another server of this file is also named "${candidate.entry.name}": imported as "${name}"` });
        candidate.entry.name = name;
        candidate.input.name = name;
      }
      inFile.add(name);
      const existing = context.existing.get(name);
      if (existing !== undefined) {
        candidate.entry.status = 'conflict';
        candidate.entry.conflict = { existingLaunch: existing, suggestedName: freeName(name, (n) => taken.has(n) || inFile.has(n)) };
      }
    }
    return candidate;
  });
  return { format: found.format, candidates, problems: [] };
}

function serverList(root: Json): { format: ImportFormat; servers: Record<string, Json> } | undefined {
  if (!isObject(root)) return undefined;
  const mcpServers = own(root, 'mcpServers');
  if (isObject(mcpServers)) return { format: 'mcpServers', servers: mcpServers };
  const servers = own(root, 'servers');
  if (isObject(servers)) return { format: 'vscode', servers };
  const settings = own(root, 'mcp');
  const nested = isObject(settings) ? own(settings, 'servers') : undefined;
  if (isObject(nested)) return { format: 'vscode', servers: nested };
  return undefined;
}

/** `name-2`, `name-3`… the first that `used` does not hold. */
export function freeName(name: string, used: (name: string) => boolean): string {
  const base = name.slice(0, 60);
  for (let n = 2; ; n++) if (!used(`${base}-${n}`)) return `${base}-${n}`;
}

/** Names of literal values worth keeping out of a plain file. */
const SECRET_NAME = /(key|token|secret|passw|pwd|auth|credential|cookie|session|bearer|private)/i;

class Refusal extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

function readServer(sourceName: string, raw: Json | undefined, format: ImportFormat, context: ImportContext, file: string): ImportCandidate {
  const notes: ImportEntry['notes'] = [];
  const validName = MCP_SERVER_NAME_PATTERN.test(sourceName) ? sourceName : idSuggestion(sourceName);
  const entry: ImportEntry = { sourceName, name: validName ?? sourceName, status: 'add', notes };
  try {
    if (!validName) throw new Refusal('IMPORT_NAME_INVALID', `"${sourceName}" cannot be made a server name`, 'import it by hand under a name of letters, digits, ".", "_" or "-"');
    if (validName !== sourceName) notes.push({ code: 'IMPORT_RENAMED', message: `"${sourceName}" is not a valid server name: imported as "${validName}"` });
    if (!isObject(raw)) throw new Refusal('IMPORT_ENTRY_NOT_A_MAP', `"${sourceName}" is not a map of settings`, 'give each server as { "command": …, "args": […] } or { "url": … }');
    const input = inputOf(validName, raw, format, context, file, notes);
    entry.transport = input.transport;
    entry.launch = launchLine({ transport: input.transport, command: input.command, args: input.args, url: input.url });
    entry.run = runOf(input);
    for (const { key, value } of input.env) {
      const why = whyChangesCode(key);
      if (why !== undefined) notes.push({ code: 'IMPORT_ENV_CHANGES_CODE', message: codeVariableWarning(quotedWord(key), shownValue(value), why) });
    }
    return { entry, input };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    entry.status = 'refused';
    entry.reason = { code: error.code, message: error.message, hint: error.hint };
    return { entry };
  }
}

function shownValue(value: ValueInput): ImportValueView {
  switch (value.kind) {
    case 'text':
      return { kind: 'text', shown: quotedWord(value.text) };
    case 'env':
      return { kind: 'env', name: value.name };
    case 'secret':
      return { kind: 'secret' };
  }
}

/** Everything the server would run with, as the plan shows it (see ImportRunSchema). */
function runOf(input: McpServerInputParsed): ImportRun {
  const headers = input.headers.map(({ key, value }) => ({ name: quotedWord(key), value: shownValue(value) }));
  if (input.transport === 'streamable_http') return { url: visibleInline(input.url ?? ''), env: [], inherited: [], headers };
  return {
    command: [input.command ?? '', ...input.args].map(quotedWord),
    ...(input.cwd ? { cwd: quotedWord(input.cwd) } : {}),
    env: input.env.map(({ key, value }) => ({ name: quotedWord(key), value: shownValue(value), changesCode: changesCode(key) })),
    inherited: inheritedBeside(input.env.map((e) => e.key)),
    headers,
  };
}

function codeVariableWarning(name: string, value: ImportValueView, why: string): string {
  const set = value.kind === 'text' ? `set to ${value.shown}` : value.kind === 'env' ? `copied from the host's ${value.name}` : 'set';
  return `${name} is ${set}: it decides which code the server runs, beyond the command shown (${why}); import it only if you know why it is there`;
}

const KNOWN_KEYS = new Set(['type', 'transportType', 'command', 'args', 'env', 'cwd', 'url', 'headers', 'disabled', 'timeout', 'envFile', 'autoApprove', 'alwaysAllow']);

function inputOf(name: string, raw: Record<string, Json>, format: ImportFormat, context: ImportContext, file: string, notes: ImportEntry['notes']): McpServerInputParsed {
  const type = String(own(raw, 'type') ?? own(raw, 'transportType') ?? '')
    .toLowerCase()
    .replace(/[-_ ]/g, '');
  const command = own(raw, 'command');
  const url = own(raw, 'url');
  if (type === 'sse' || type === 'ws' || type === 'websocket') {
    const { message, hint } = unsupportedTransport(type);
    throw new Refusal('IMPORT_TRANSPORT_UNSUPPORTED', message, hint);
  }
  const expand = (text: string, where: string) => expandVariables(text, where, context, file);
  const useUrl = type === 'http' || type === 'streamablehttp' || (type !== 'stdio' && command === undefined && url !== undefined);
  const ignored = Object.keys(raw).filter((key) => !KNOWN_KEYS.has(key));
  if (ignored.length) notes.push({ code: 'IMPORT_FIELD_IGNORED', message: `not used by ChatOS: ${ignored.join(', ')}` });
  for (const key of ['autoApprove', 'alwaysAllow'] as const) {
    if (own(raw, key) !== undefined)
      notes.push({ code: 'IMPORT_FIELD_IGNORED', message: `"${key}" is not imported: ChatOS asks for confirmation by each tool's permission level (set on the server's page)` });
  }
  if (typeof own(raw, 'envFile') === 'string')
    notes.push({ code: 'IMPORT_ENVFILE_IGNORED', message: `envFile ${String(own(raw, 'envFile'))} is not read: set its variables in the environment ChatOS starts from, or add them to the server` });
  const common: Pick<McpServerInputParsed, 'disabled' | 'timeoutMs'> = {};
  if (own(raw, 'disabled') === true) common.disabled = true;
  const timeout = own(raw, 'timeout');
  // Cline's timeout is in seconds; mcp.yaml's in milliseconds.
  if (format === 'mcpServers' && typeof timeout === 'number' && Number.isInteger(timeout) && timeout > 0 && timeout <= 3600) common.timeoutMs = timeout * 1000;

  if (useUrl) {
    if (typeof url !== 'string' || url === '') throw new Refusal('IMPORT_URL_MISSING', `"${name}" has no url`, 'give the server\'s streamable HTTP url, e.g. "url": "http://127.0.0.1:3000/mcp"');
    const target = expand(url, 'url');
    const checked = checkServerUrl(target);
    if (!checked.ok) throw new Refusal('IMPORT_URL_REFUSED', checked.message, checked.hint);
    // Without a type, a client tries streamable HTTP and falls back to SSE; a url ending in /sse is the old transport.
    if (type === '' && /\/sse\/?$/i.test(checked.url.pathname)) {
      const { message, hint } = unsupportedTransport('sse');
      throw new Refusal('IMPORT_TRANSPORT_UNSUPPORTED', `${target} ends in /sse: ${message}`, hint);
    }
    return { name, transport: 'streamable_http', url: target, headers: namedValues(own(raw, 'headers'), 'headers', context, file, notes), args: [], env: [], ...common };
  }
  if (typeof command !== 'string' || command === '')
    throw new Refusal('IMPORT_COMMAND_MISSING', `"${name}" has neither a command nor a url`, 'give "command" (a program to start) or "url" (a streamable HTTP endpoint)');
  const rawArgs = own(raw, 'args') ?? [];
  if (!Array.isArray(rawArgs) || rawArgs.some((a) => typeof a !== 'string' && typeof a !== 'number'))
    throw new Refusal('IMPORT_ARGS_INVALID', `"${name}": args must be a list of strings`, 'write args as ["-y", "some-package"]');
  const cwd = own(raw, 'cwd');
  return {
    name,
    transport: 'stdio',
    command: expand(command, 'command'),
    args: rawArgs.map((arg, i) => expand(String(arg), `args[${i}]`)),
    env: namedValues(own(raw, 'env'), 'env', context, file, notes),
    ...(typeof cwd === 'string' && cwd !== '' ? { cwd: expand(cwd, 'cwd') } : {}),
    headers: [],
    ...common,
  };
}

function namedValues(values: Json | undefined, field: 'env' | 'headers', context: ImportContext, file: string, notes: ImportEntry['notes']): NamedValueInput[] {
  if (values === undefined || values === null) return [];
  if (!isObject(values)) throw new Refusal('IMPORT_VALUES_INVALID', `${field} must be a map of names to strings`, `write ${field} as { "NAME": "value" }`);
  return Object.keys(values).map((key) => {
    const raw = values[key];
    if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean')
      throw new Refusal('IMPORT_VALUES_INVALID', `${field}.${key} must be a string`, `write ${field}.${key} as a string`);
    return { key, value: valueInput(String(raw), `${field}.${key}`, key, context, file, notes) };
  });
}

const WHOLE_ENV = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/;
const WHOLE_INPUT = /^\$\{input:([^}]+)\}$/;

function valueInput(text: string, where: string, key: string, context: ImportContext, file: string, notes: ImportEntry['notes']): ValueInput {
  const env = WHOLE_ENV.exec(text);
  if (env) return { kind: 'env', name: env[1]! };
  const input = WHOLE_INPUT.exec(text);
  if (input) {
    const variable = input[1]!
      .toUpperCase()
      .replace(/[^A-Z0-9_]/g, '_')
      .replace(/^(?=\d)/, '_');
    notes.push({
      code: 'IMPORT_INPUT_AS_ENV',
      message: `${where} was asked for by VS Code (input "${input[1]}"): ChatOS copies it from the host variable ${variable}; set it there, or edit the server to store the value`,
    });
    return { kind: 'env', name: variable };
  }
  const value = expandVariables(text, where, context, file);
  // A variable that decides which code runs is shown in the plan as it is, never hidden in the key store.
  if (context.storeSecrets && value !== '' && SECRET_NAME.test(key) && !changesCode(key)) {
    notes.push({ code: 'IMPORT_VALUE_STORED', message: `${where} is kept in the key store, not written into mcp.yaml` });
    return { kind: 'secret', value };
  }
  return { kind: 'text', text: value };
}

/** VS Code's and Cursor's variables in a value; what ChatOS cannot fill in refuses the server. */
function expandVariables(text: string, where: string, context: ImportContext, file: string): string {
  return text.replace(/\$\{([^}]*)\}/g, (whole, name: string) => {
    if (name === 'userHome') return context.homeDir;
    if (name === '/' || name === 'pathSeparator') return path.sep;
    if (name === 'workspaceFolder') {
      const folder = workspaceOf(context.fileName);
      if (folder) return folder;
      throw new Refusal(
        'IMPORT_VARIABLE_UNKNOWN',
        `${where} uses \${workspaceFolder}, and ${file} is not in a workspace's .vscode folder`,
        'import the mcp.json from its .vscode folder, or add the server by hand with the folder written out',
      );
    }
    if (name.startsWith('env:') || name.startsWith('input:')) {
      throw new Refusal(
        'IMPORT_VALUE_MIXED',
        `${where} mixes text with ${whole}: ChatOS copies a whole value from one variable, not a part of one`,
        'import the others, then add this server by hand with the whole value stored on the MCP servers page',
      );
    }
    return whole; // not a variable of theirs (Claude Desktop expands none): kept as written
  });
}

function workspaceOf(fileName: string | undefined): string | undefined {
  if (!fileName) return undefined;
  const dir = path.dirname(path.resolve(fileName));
  return path.basename(dir) === '.vscode' ? path.dirname(dir) : undefined;
}
