import type { z } from 'zod';
import type { EnvValue, OAuthClientConfig, ServerDefinition, ServerTransport } from '../../../shared/mcp.js';
import { ownValue, valueAtPath } from '../../../shared/ownKeys.js';
import type { Problem } from '../../../shared/problems.js';
import { formatJsonPath } from '../../../shared/problemText.js';
import { HOST_APP_ID } from '../../dataHome.js';
import { readProblem, readRegularText } from '../../files/readRegularFile.js';
import { parseYamlText } from '../../problems/textFiles.js';
import { findUnknownKeys } from '../../problems/unknownKeys.js';
import { zodIssuesToProblems } from '../../problems/zodProblems.js';
import { findMissingEnvReferences } from './envValues.js';
import { parseBuiltinSettings, type BuiltinSettings } from './builtinSettings.js';
import { parseLeaseSettings, type LeaseSettings } from './leaseSettings.js';
import { parseNodeRuntimeSettings, type NodeRuntimeSettings } from '../../runtime/nodeRuntimeSettings.js';
import { McpConfigFileSchema, McpServerEntrySchema, SERVER_FIELD_HINTS, SERVER_ID_PATTERN, SUPPORTED_MCP_CONFIG_VERSION, type McpServerEntry } from './mcpConfigSchema.js';
import { checkServerUrl, SUPPORTED_TRANSPORTS, unsupportedTransport } from './transports.js';

/**
 * Reads `$CHATOS_HOME/chatos/mcp.yaml` into server definitions (docs/rules/mcp-yaml.md).
 *
 * Two scopes of failure (docs/rules/mcp-yaml.md#two-scopes-of-failure): a problem with the file as a
 * whole (YAML syntax, version, duplicate server ids, `servers` not a map)
 * rejects the whole load, so the caller keeps its last good set; a problem
 * with one server rejects only that server, so the caller keeps that
 * server's last good instance and applies the rest.
 */

// The env resolution and definition helpers live in their own modules; the runtime imports them from here.
export { resolveEnvValues, type EnvResolution } from './envValues.js';
export { definitionFromRegistry, definitionsEqual } from './serverDefinition.js';

export type RejectedServer = { rejected: Problem[] };
export type ServerLoad = ServerDefinition | RejectedServer;

export type McpConfigLoad =
  | { kind: 'missing' }
  | { kind: 'rejected'; problems: Problem[] }
  | {
      kind: 'loaded';
      /**
       * Keyed by the id written under `servers:` (the definition's id is
       * `chatos::<key>`), in file order. A rejected server holds its own
       * problems (errors and warnings).
       */
      servers: Map<string, ServerLoad>;
      /** Every problem of this load, rejected servers' included: the list to show the user. */
      problems: Problem[];
      /** The `leases:` block as written (empty when absent or broken). */
      leases: LeaseSettings;
      /** The `nodeRuntime:` block as written (empty when absent or broken). */
      nodeRuntime: NodeRuntimeSettings;
      /** The `builtins:` block as written (empty, every built-in tool off, when absent or broken). */
      builtins: BuiltinSettings;
    };

export function isRejectedServer(load: ServerLoad): load is RejectedServer {
  return 'rejected' in load;
}

/** The registry id of an mcp.yaml server: the host owns them. */
export function mcpYamlServerId(key: string): string {
  return `${HOST_APP_ID}::${key}`;
}

/** Far more than any list of servers; past it the file is not read. */
export const MAX_MCP_CONFIG_BYTES = 1024 * 1024;

/** The one read from disk; everything else is `parseMcpConfig`. */
export function loadMcpConfig(file: string, env: NodeJS.ProcessEnv): McpConfigLoad {
  // A regular file only, read without blocking: a FIFO named mcp.yaml must not hang the host.
  const read = readRegularText(file, { maxBytes: MAX_MCP_CONFIG_BYTES });
  if (!read.ok) {
    // A deleted mcp.yaml means "no servers" (docs/rules/mcp-yaml.md#the-file), not a failure.
    if (read.code === 'FILE_NOT_FOUND') return { kind: 'missing' };
    const hint = read.code === 'FILE_TOO_LARGE' ? 'a config of servers is far smaller: check that this is the right file' : `${read.hint}, or remove it to configure no servers`;
    return { kind: 'rejected', problems: [{ ...readProblem(read, file), code: 'MCP_CONFIG_UNREADABLE', hint }] };
  }
  const text = read.text;
  return parseMcpConfig(text, file, env);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'a map' : `${typeof value} ${JSON.stringify(value)}`;
}

function error(file: string, segments: PropertyKey[], code: string, message: string, hint: string): Problem {
  return { severity: 'error', code, file, path: formatJsonPath(segments), message, hint };
}

function warning(file: string, segments: PropertyKey[], code: string, message: string, hint: string): Problem {
  return { severity: 'warning', code, file, path: formatJsonPath(segments), message, hint };
}

/** Parses the text of an mcp.yaml. Pure: `env` is the host environment `{ env: NAME }` values are checked against. */
export function parseMcpConfig(text: string, file: string, env: NodeJS.ProcessEnv): Exclude<McpConfigLoad, { kind: 'missing' }> {
  const parsed = parseYamlText(text, file);
  if (!parsed.ok) return { kind: 'rejected', problems: [explainDuplicateKey(parsed.problem, text)] };
  const document = parsed.value;

  const workspace = checkWorkspace(document, file);
  if (workspace.problems.some((p) => p.severity === 'error') || !workspace.servers) {
    return { kind: 'rejected', problems: workspace.problems };
  }

  const leases = parseLeaseSettings((document as { leases?: unknown }).leases, document, file);
  const nodeRuntime = parseNodeRuntimeSettings((document as { nodeRuntime?: unknown }).nodeRuntime, document, file);
  const builtins = parseBuiltinSettings((document as { builtins?: unknown }).builtins, document, file);
  const problems = [...workspace.problems, ...leases.problems, ...nodeRuntime.problems, ...builtins.problems];
  const servers = new Map<string, ServerLoad>();
  for (const [key, raw] of Object.entries(workspace.servers)) {
    const result = parseServer(key, raw, document, file, env);
    problems.push(...result.problems);
    servers.set(key, result.definition ?? { rejected: result.problems });
  }
  return { kind: 'loaded', servers, problems, leases: leases.settings, nodeRuntime: nodeRuntime.settings, builtins: builtins.settings };
}

// ── workspace level ─────────────────────────────────────────────────────────

function checkWorkspace(document: unknown, file: string): { problems: Problem[]; servers?: Record<string, unknown> } {
  if (!isPlainObject(document)) {
    return {
      problems: [
        error(file, [], 'MCP_CONFIG_NOT_A_MAP', `mcp.yaml must be a map with "version" and "servers", not ${describe(document)}`, 'start the file with "version: 1" and list servers under "servers:"'),
      ],
    };
  }
  const result = McpConfigFileSchema.safeParse(document);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      if (issue.path[0] === 'version') {
        const written = document.version;
        return written === undefined
          ? error(
              file,
              ['version'],
              'MCP_VERSION_MISSING',
              `"version" is missing; this ChatOS reads mcp.yaml version ${SUPPORTED_MCP_CONFIG_VERSION}`,
              `add "version: ${SUPPORTED_MCP_CONFIG_VERSION}" at the top of the file`,
            )
          : error(
              file,
              ['version'],
              'MCP_VERSION_UNSUPPORTED',
              `version ${describe(written)} is not supported; this ChatOS reads mcp.yaml version ${SUPPORTED_MCP_CONFIG_VERSION}`,
              `set "version: ${SUPPORTED_MCP_CONFIG_VERSION}" (a number) and write the servers in the version ${SUPPORTED_MCP_CONFIG_VERSION} form`,
            );
      }
      return error(
        file,
        ['servers'],
        'MCP_SERVERS_NOT_A_MAP',
        `"servers" must be a map of server id → settings, not ${describe(document.servers)}`,
        'write each server as "<id>:" indented under "servers:", e.g. "servers:\\n  playwright:\\n    command: npx"',
      );
    });
    return { problems };
  }
  return { problems: unknownKeyWarnings(McpConfigFileSchema, document, file, []), servers: result.data.servers };
}

/**
 * js-yaml rejects a mapping with a repeated key, pointing at the second one.
 * Under `servers:` that is a duplicate server id, which docs/rules/mcp-yaml.md#two-scopes-of-failure names as a
 * workspace error of its own; say so, keeping js-yaml's line and column.
 */
function explainDuplicateKey(problem: Problem, text: string): Problem {
  // parseYamlText keeps js-yaml's reason in the message; that is the only place it is.
  if (!problem.message.includes('duplicated mapping key') || problem.line === undefined || problem.column === undefined) return problem;
  const lines = text.split(/\r?\n/);
  const key = keyAt(lines[problem.line - 1] ?? '', problem.column - 1);
  const where = `line ${problem.line}, column ${problem.column}`;
  if (key !== undefined && isServerKeyPosition(lines, problem.line - 1, problem.column - 1)) {
    return {
      ...problem,
      code: 'MCP_DUPLICATE_SERVER_ID',
      path: formatJsonPath(['servers', key]),
      message: `duplicate server id "${key}" at ${where}: each server id may appear once under "servers"`,
      hint: `rename one of the two "${key}" entries, or merge them into one`,
    };
  }
  return {
    ...problem,
    code: 'YAML_DUPLICATE_KEY',
    message: `duplicate key${key === undefined ? '' : ` "${key}"`} at ${where}: a key may appear once in each map`,
    hint: 'remove one of the two, or merge them',
  };
}

/** The mapping key that starts at `column` of a block- or flow-style line. */
function keyAt(line: string, column: number): string | undefined {
  const rest = line.slice(column);
  const quoted = /^(["'])((?:\\.|(?!\1).)*)\1/.exec(rest);
  if (quoted) return quoted[1] === '"' ? (JSON.parse(`"${quoted[2]}"`) as string) : quoted[2]!.replace(/''/g, "'");
  const plain = /^([^:,{}[\]#]+?)\s*:(?:\s|$)/.exec(rest);
  return plain ? plain[1] : undefined;
}

const indentOf = (line: string) => line.length - line.trimStart().length;
const isContent = (line: string) => line.trim() !== '' && !line.trimStart().startsWith('#');

/** Is (row, column) where a block-style server id sits: the indentation of the first key under a top-level `servers:`? */
function isServerKeyPosition(lines: string[], row: number, column: number): boolean {
  let serversRow = -1;
  for (let i = row - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (!isContent(line) || indentOf(line) > 0) continue;
    if (/^servers\s*:\s*(?:#.*)?$/.test(line)) serversRow = i;
    break; // the nearest top-level key above decides
  }
  if (serversRow < 0) return false;
  const first = lines.slice(serversRow + 1, row + 1).find(isContent);
  return first !== undefined && indentOf(first) === column;
}

// ── server level ────────────────────────────────────────────────────────────

function unknownKeyWarnings(schema: z.ZodType, value: unknown, file: string, at: PropertyKey[], skip: string[] = []): Problem[] {
  return findUnknownKeys(schema, value, file, { at }).filter((p) => !skip.some((prefix) => p.path === prefix || p.path.startsWith(`${prefix}[`) || p.path.startsWith(`${prefix}.`)));
}

/** A valid server id close to `key` (spaces and other characters made "_"), if there is one. */
export function idSuggestion(key: string): string | undefined {
  const fixed = key
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 64);
  return fixed && SERVER_ID_PATTERN.test(fixed) ? fixed : undefined;
}

function checkTransportValue(raw: Record<string, unknown>, at: PropertyKey[], file: string): Problem | undefined {
  const written = raw.transport;
  if (written === undefined || (SUPPORTED_TRANSPORTS as readonly unknown[]).includes(written)) return undefined;
  if (typeof written === 'string') {
    const { message, hint } = unsupportedTransport(written);
    return error(file, [...at, 'transport'], 'MCP_TRANSPORT_UNSUPPORTED', message, hint);
  }
  return error(file, [...at, 'transport'], 'MCP_TRANSPORT_UNSUPPORTED', `transport ${describe(written)} is not supported; use stdio or streamable_http`, SERVER_FIELD_HINTS.transport!);
}

function schemaProblems(issues: readonly z.core.$ZodIssue[], document: unknown, file: string, at: PropertyKey[]): Problem[] {
  return issues.flatMap((issue) => {
    const field = String(issue.path[0] ?? '');
    if (field === 'transport') return []; // checkTransportValue says it better
    const path = [...at, ...issue.path];
    if (field === 'transform' && issue.code === 'invalid_union') {
      // zod's "wrong shape" says nothing of the three shapes a transform may take.
      const written = JSON.stringify(valueAtPath(document, path)) ?? 'nothing';
      return [
        error(
          file,
          path,
          'MCP_TRANSFORM_INVALID',
          `must be one of prefix: "…", prefix: { remove: "…", add: "…" } or suffix: "…", not ${written.length > 80 ? `${written.slice(0, 77)}...` : written}`,
          SERVER_FIELD_HINTS.transform!,
        ),
      ];
    }
    return zodIssuesToProblems([{ ...issue, path }], document, file).map((p) => ({
      ...p,
      code: field === 'transform' ? 'MCP_TRANSFORM_INVALID' : p.code,
      hint: ownValue(SERVER_FIELD_HINTS, field) ?? p.hint,
    }));
  });
}

/** The transports an mcp.yaml may name; in-process servers belong to the host alone. */
type Kind = Exclude<ServerTransport['kind'], 'in-process'>;

function transportKind(entry: McpServerEntry, key: string, at: PropertyKey[], file: string): { kind?: Kind; problem?: Problem } {
  if (entry.transport) return { kind: entry.transport };
  const hasCommand = entry.command !== undefined;
  const hasUrl = entry.url !== undefined;
  if (hasCommand && !hasUrl) return { kind: 'stdio' };
  if (hasUrl && !hasCommand) return { kind: 'streamable_http' };
  return {
    problem: hasCommand
      ? error(
          file,
          [...at, 'transport'],
          'MCP_TRANSPORT_AMBIGUOUS',
          `server "${key}" has both a command and a url, and no transport to say which to use`,
          'add "transport: stdio" to run the command, or "transport: streamable_http" to connect to the url',
        )
      : error(
          file,
          [...at, 'transport'],
          'MCP_TRANSPORT_MISSING',
          `server "${key}" has neither a command (stdio) nor a url (streamable_http)`,
          'add "command: …" to start a local server, or "url: http://…" to connect to a running one',
        ),
  };
}

/** Fields of the other transport are ignored; say so, since the user may have set the wrong transport. */
const OTHER_TRANSPORT_FIELDS: Record<Kind, string[]> = {
  stdio: ['url', 'headers', 'sessionId', 'oauth'],
  streamable_http: ['command', 'args', 'env', 'inheritEnv', 'cwd', 'nodeRuntime'],
};

function checkTransport(kind: Kind, entry: McpServerEntry, raw: Record<string, unknown>, key: string, at: PropertyKey[], file: string): Problem[] {
  const problems: Problem[] = [];
  if (kind === 'stdio' && entry.command === undefined) {
    problems.push(error(file, [...at, 'command'], 'MCP_COMMAND_MISSING', `server "${key}" uses transport stdio but has no command`, SERVER_FIELD_HINTS.command!));
  }
  if (kind === 'streamable_http') {
    if (entry.url === undefined) {
      problems.push(error(file, [...at, 'url'], 'MCP_URL_MISSING', `server "${key}" uses transport streamable_http but has no url`, SERVER_FIELD_HINTS.url!));
    } else {
      const checked = checkServerUrl(entry.url);
      if (!checked.ok) problems.push(error(file, [...at, 'url'], 'MCP_URL_INVALID', `server "${key}": ${checked.message}`, checked.hint));
    }
  }
  for (const field of OTHER_TRANSPORT_FIELDS[kind]) {
    if (raw[field] === undefined || raw[field] === null) continue;
    problems.push(
      warning(file, [...at, field], 'MCP_FIELD_IGNORED', `"${field}" is ignored: server "${key}" uses transport ${kind}`, `remove "${field}", or check that "transport" is what you meant`),
    );
  }
  return problems;
}

/**
 * A warning, not a rejection: the server's definition (and its registration,
 * which holds no values) does not depend on the environment, and another
 * process (the app, `chatos serve`) may well have the variable. Only a start
 * of the server in this process fails, naming it.
 */
function checkEnvReferences(values: Record<string, EnvValue>, field: 'env' | 'headers', hostEnv: NodeJS.ProcessEnv, key: string, at: PropertyKey[], file: string): Problem[] {
  return findMissingEnvReferences(values, hostEnv).map((ref) =>
    warning(
      file,
      [...at, field, ref.key],
      'MCP_ENV_MISSING',
      `server "${key}": ${field}.${ref.key} copies the host environment variable ${ref.variable}, which is not set here, so the server cannot start in this process`,
      `set ${ref.variable} in the environment ChatOS is started from, or disable the server with "disabled: true" until it is`,
    ),
  );
}

/** Left out when it adds nothing, so a definition (and its equality on reload) is as before for servers that do not ask. */
function inheritEnvOf(inherit: McpServerEntry['inheritEnv']): { inheritEnv?: true | string[] } {
  if (inherit === true) return { inheritEnv: true };
  return Array.isArray(inherit) && inherit.length > 0 ? { inheritEnv: inherit } : {};
}

/** mcp.yaml's `oauth:` in the definition's spelling; left out when empty, so other servers' definitions are as before. */
function oauthOf(oauth: McpServerEntry['oauth']): { oauth?: OAuthClientConfig } {
  if (!oauth) return {};
  const config: OAuthClientConfig = {
    ...(oauth.client_id === undefined ? {} : { clientId: oauth.client_id }),
    ...(oauth.client_secret === undefined ? {} : { clientSecret: oauth.client_secret }),
    ...(oauth.client_metadata_url === undefined ? {} : { clientMetadataUrl: oauth.client_metadata_url }),
  };
  return Object.keys(config).length ? { oauth: config } : {};
}

function toDefinition(key: string, entry: McpServerEntry, kind: Kind): ServerDefinition {
  const transport: ServerTransport =
    kind === 'stdio'
      ? {
          kind,
          command: entry.command!,
          args: entry.args,
          env: entry.env,
          ...inheritEnvOf(entry.inheritEnv),
          ...(entry.cwd === undefined ? {} : { cwd: entry.cwd }),
          ...(entry.nodeRuntime === undefined ? {} : { nodeRuntime: entry.nodeRuntime }),
        }
      : { kind, url: entry.url!, headers: entry.headers, ...(entry.sessionId === undefined ? {} : { sessionId: entry.sessionId }), ...oauthOf(entry.oauth) };
  return {
    id: mcpYamlServerId(key),
    name: key,
    providerAppId: HOST_APP_ID,
    origin: 'mcp.yaml',
    category: 'external',
    transport,
    trulyStateless: entry['truely-stateless'],
    tools: entry.tools,
    transform: entry.transform,
    allowMain: entry.allowMain,
    allowSub: entry.allowSub,
    timeoutMs: entry.timeout,
    ...(entry.maxTotalTimeout === undefined ? {} : { maxTotalTimeoutMs: entry.maxTotalTimeout }),
    ...(entry.connectTimeout === undefined ? {} : { connectTimeoutMs: entry.connectTimeout }),
    ...(entry.maxResultChars === undefined ? {} : { maxResultChars: entry.maxResultChars }),
    ...(entry.maxViewBytes === undefined ? {} : { maxViewBytes: entry.maxViewBytes }),
    ...(entry.sampling === undefined ? {} : { sampling: entry.sampling }),
    permissions: Object.entries(entry.permissions).map(([pattern, level]) => ({ pattern, level })),
    disabledTools: entry.disabledTools,
    disabled: entry.disabled,
    meta: {},
  };
}

function parseServer(key: string, raw: unknown, document: unknown, file: string, env: NodeJS.ProcessEnv): { definition?: ServerDefinition; problems: Problem[] } {
  const at = ['servers', key];
  const problems: Problem[] = [];
  if (!SERVER_ID_PATTERN.test(key)) {
    const suggestion = idSuggestion(key);
    problems.push(
      error(
        file,
        at,
        'MCP_SERVER_ID_INVALID',
        `server id "${key}" is not valid: it must start with a letter or digit and use only letters, digits, ".", "_" or "-" (at most 64)`,
        suggestion ? `rename it, e.g. to "${suggestion}"` : 'rename it, e.g. to "my-server"',
      ),
    );
  }
  if (!isPlainObject(raw)) {
    problems.push(
      error(file, at, 'MCP_SERVER_NOT_A_MAP', `server "${key}" must be a map of settings, not ${describe(raw)}`, 'give it "command: …" (stdio) or "url: …" (streamable_http), indented under its id'),
    );
    return { problems };
  }

  const transportProblem = checkTransportValue(raw, at, file);
  if (transportProblem) problems.push(transportProblem);
  const result = McpServerEntrySchema.safeParse(raw);
  let kind: Kind | undefined;
  if (!result.success) {
    problems.push(...schemaProblems(result.error.issues, document, file, at));
  } else {
    const inferred = transportKind(result.data, key, at, file);
    kind = inferred.kind;
    if (inferred.problem) problems.push(inferred.problem);
    const total = result.data.maxTotalTimeout;
    if (total !== undefined && total < result.data.timeout) {
      problems.push(
        error(
          file,
          [...at, 'maxTotalTimeout'],
          'MCP_MAX_TOTAL_TIMEOUT_SHORT',
          `server "${key}": maxTotalTimeout (${total} ms) is shorter than its timeout (${result.data.timeout} ms), so a call could never use its timeout`,
          SERVER_FIELD_HINTS.maxTotalTimeout!,
        ),
      );
    }
    if (kind) {
      problems.push(...checkTransport(kind, result.data, raw, key, at, file));
      // A disabled server never starts, and a user often disables one because its secret is not at hand.
      if (!result.data.disabled) {
        const values = kind === 'stdio' ? result.data.env : result.data.headers;
        problems.push(...checkEnvReferences(values, kind === 'stdio' ? 'env' : 'headers', env, key, at, file));
      }
    }
  }
  // Transforms are strict: an unknown key there is an error from the schema, not a warning as well.
  problems.push(...unknownKeyWarnings(McpServerEntrySchema, raw, file, at, [formatJsonPath([...at, 'transform'])]));
  if (!result.success || !kind || problems.some((p) => p.severity === 'error')) return { problems };
  return { definition: toDefinition(key, result.data, kind), problems };
}
