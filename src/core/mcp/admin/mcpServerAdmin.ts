import { isCollection, isMap, isNode, isScalar, parseDocument, type Document, type YAMLMap } from 'yaml';
import type { ServerDefinition } from '../../../shared/mcp.js';
import {
  ImportApplyOptionsSchema,
  type ImportApplyOptions,
  type ImportPlan,
  type ImportResult,
  type McpServerEntryView,
  type McpServerInputParsed,
  type McpServerList,
  type McpTemplate,
  type McpTestResult,
} from '../../../shared/mcpAdmin.js';
import type { Problem } from '../../../shared/problems.js';
import type { Logger } from '../../ports.js';
import { suggestClosest } from '../../naming/suggest.js';
import { loadYaml } from '../../problems/yamlLoader.js';
import { isPlainObject } from '../../plainObject.js';
import { mcpValueSecretName, type SecretStore } from '../../secrets/secretStore.js';
import { canonicalJson } from '../../store/canonicalJson.js';
import { isRejectedServer, mcpYamlServerId, parseMcpConfig } from '../config/mcpConfigLoader.js';
import type { McpRuntime } from '../mcpRuntime.js';
import type { OAuthService } from '../auth/oauthService.js';
import { testResultOf, withPendingValues } from './connectionTest.js';
import { DEFAULT_TEST_TIMEOUT_MS } from './testTimeout.js';
import { readImport } from './importConfig.js';
import { McpAdminError } from './mcpAdminError.js';
import { loaderSafeNode, McpYamlFile, serversMap } from './mcpYamlFile.js';
import { entryChange, entryView, fieldErrorsOf, invalid, launchLine, parseServerInput, storedNamesOf, type EntryChange } from './serverEntry.js';
import { listTemplates, templateInput, type TemplateContext } from './serverTemplates.js';

/**
 * The user's MCP servers (mcp.yaml), as every face changes them: the MCP
 * servers page (HostApi `mcpServers.*`), `chatos mcp …` and anything else
 * that edits servers call these operations, so they behave the same.
 *
 * A write is checked before it is made (see McpYamlFile) and the running
 * host reads the file at once; stored values go to the key store (never
 * into the file, never back to a face) and leave it with their server.
 */

export interface McpServerAdminDeps {
  configFile: string;
  secrets: SecretStore;
  /** Remote servers' sign-in: its state on each url entry's view; a removed server's tokens leave with it. */
  oauth?: Pick<OAuthService, 'state' | 'forget' | 'discover'>;
  /**
   * What the user decided about a server (its settings: switches, permission overrides, log level, sampling's
   * "always allow"; its tools' "always allow" answers): forgotten with the server, as its sign-in is.
   */
  decisions?: { forget(serverId: string): void };
  /**
   * The registry's row of a removed server and the grants on it: removed with it, as `prune` would, so a server
   * the user deleted is gone rather than "missing" (docs/rules/registry.md#what-goes-and-when). Returns the grants revoked.
   */
  registrations?: { remove(serverId: string): number };
  /** The agents that selected a removed server: it leaves their selections (AgentStore.forgetServer); the ids of those changed. */
  agents?: { forgetServer(serverId: string): string[] };
  hostEnv: NodeJS.ProcessEnv;
  logger: Logger;
  /** Starts a definition once (test connection); the running definition of a registry id. */
  runtime: Pick<McpRuntime, 'tryStart' | 'definition'>;
  /** Makes this host read mcp.yaml now; other processes see the change through their watchers. */
  reload(): Promise<unknown>;
  templates: TemplateContext;
}

/** One change of a write: put a server (new, edited, or replacing one), or take one out. */
type Op = { kind: 'put'; input: McpServerInputParsed; mode: 'create' | 'update' | 'replace' } | { kind: 'remove'; name: string };

export type TestTarget = { name: string } | { server: unknown };

const rawServers = (doc: Document): Record<string, unknown> => {
  const value = doc.toJS() as { servers?: unknown } | null;
  return isPlainObject(value?.servers) ? (value.servers as Record<string, unknown>) : {};
};

export class McpServerAdmin {
  private readonly file: McpYamlFile;

  constructor(private readonly deps: McpServerAdminDeps) {
    this.file = new McpYamlFile(deps.configFile, deps.hostEnv, deps.logger);
  }

  // ── reading ───────────────────────────────────────────────────────────────

  async list(): Promise<McpServerList> {
    const { exists, text, load } = this.file.read();
    const raw = load.kind === 'loaded' ? ((loadYaml(text) as { servers?: Record<string, unknown> } | null)?.servers ?? {}) : {};
    const stored = await this.storedSet(Object.values(raw).flatMap(storedNamesOf));
    const servers = await Promise.all(Object.entries(raw).map(([name, entry]) => this.withSignIn(entryView(name, entry, problemsOf(load, name), this.deps.hostEnv, (n) => stored.has(n)))));
    const fileProblems = load.kind === 'rejected' ? load.problems : load.problems.filter((p) => !p.path.startsWith('servers.') && !p.path.startsWith('servers['));
    return { file: this.deps.configFile, exists, servers, problems: fileProblems };
  }

  async get(name: string): Promise<McpServerEntryView> {
    const list = await this.list();
    const found = list.servers.find((s) => s.name === name);
    if (!found)
      throw notFound(
        name,
        list.servers.map((s) => s.name),
        this.deps.configFile,
      );
    return found;
  }

  /** A url server's view with its sign-in state (an unreadable key store shows as none; its start says why). */
  private async withSignIn(view: McpServerEntryView): Promise<McpServerEntryView> {
    if (!this.deps.oauth || view.url === undefined) return view;
    const signIn = await this.deps.oauth.state({ serverId: view.id, serverUrl: view.url }).catch(() => undefined);
    // Nothing known (the server never asked, nothing stored) shows as no sign-in at all.
    return signIn && signIn.kind !== 'none' ? { ...view, signIn } : view;
  }

  /** Which stored values exist, of `names`; an unreadable key store counts as none (the Models page says why). */
  private async storedSet(names: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const name of new Set(names)) {
      try {
        if (await this.deps.secrets.has(mcpValueSecretName(name))) found.add(name);
      } catch {
        // Shown as not set; the start of the server reports the store's problem.
      }
    }
    return found;
  }

  // ── changes ───────────────────────────────────────────────────────────────

  async add(input: unknown): Promise<McpServerEntryView> {
    const parsed = parseServerInput(input);
    await this.write([{ kind: 'put', input: parsed, mode: 'create' }]);
    await this.discoverSignIn([parsed.name]);
    return this.get(parsed.name);
  }

  /** Added remote servers are asked whether they need sign-in, so their cards say so at once (an import's too). */
  private async discoverSignIn(names: readonly string[]): Promise<void> {
    if (!this.deps.oauth) return;
    const { servers } = await this.list();
    await Promise.all(servers.filter((s) => names.includes(s.name) && s.url !== undefined && !s.disabled).map((s) => this.deps.oauth!.discover({ serverId: s.id, serverUrl: s.url! })));
  }

  /** Edits `name` with the form's input; what the form does not hold stays as written. */
  async update(name: string, input: unknown): Promise<McpServerEntryView> {
    const parsed = parseServerInput(input);
    if (parsed.name !== name) {
      throw invalid([
        { path: 'name', message: `a server cannot be renamed ("${name}" to "${parsed.name}")`, hint: 'add it under the new name, then remove the old one (its grants stay with the old name)' },
      ]);
    }
    await this.write([{ kind: 'put', input: parsed, mode: 'update' }]);
    return this.get(name);
  }

  async remove(name: string): Promise<{ removed: string; storedValuesRemoved: number; grantsRevoked: number; agentsChanged: string[] }> {
    const removedValues = await this.write([{ kind: 'remove', name }]);
    await this.forgetServer(name);
    // Only here, not when an import replaces a server: the name stays in the file then, and so does its registration.
    const grantsRevoked = this.deps.registrations?.remove(mcpYamlServerId(name)) ?? 0;
    const agentsChanged = this.deps.agents?.forgetServer(mcpYamlServerId(name)) ?? [];
    return { removed: name, storedValuesRemoved: removedValues, grantsRevoked, agentsChanged };
  }

  /**
   * A server gone (removed, or replaced by an import): its sign-in and every decision the user made about it leave
   * with it, so another program added under this name signs in afresh and is asked about as a new server.
   */
  private async forgetServer(name: string): Promise<void> {
    const serverId = mcpYamlServerId(name);
    this.deps.decisions?.forget(serverId);
    await this.deps.oauth?.forget({ serverId }).catch(() => false);
  }

  /** `disabled: true` in mcp.yaml (every process), unlike the servers page's switch, which is this data home's setting. */
  async setDisabled(name: string, disabled: boolean): Promise<McpServerEntryView> {
    await this.file.edit({
      change: (doc, current) => {
        const entry = serversMap(doc).get(name, true);
        if (!isMap(entry)) throw notFound(name, [...current.servers.keys()], this.deps.configFile);
        if (disabled) entry.set('disabled', true);
        else entry.delete('disabled');
        return { touched: [name], result: undefined };
      },
    });
    await this.reloadHost();
    return this.get(name);
  }

  /**
   * One checked write of mcp.yaml for every op, then the key store: new
   * values stored, values no server refers to any more removed. Returns
   * how many stored values were removed.
   */
  private async write(ops: Op[]): Promise<number> {
    let before: string[] = [];
    const { store } = await this.file.edit({
      change: (doc, current) => {
        const servers = serversMap(doc);
        const raw = rawServers(doc);
        before = Object.values(raw).flatMap(storedNamesOf);
        const taken = new Set(before);
        const store = new Map<string, string>();
        const touched: string[] = [];
        for (const op of ops) {
          if (op.kind === 'remove') {
            if (!servers.has(op.name)) throw notFound(op.name, [...current.servers.keys()], this.deps.configFile);
            servers.delete(op.name);
            touched.push(op.name);
            continue;
          }
          const { input, mode } = op;
          const exists = servers.has(input.name);
          if (mode === 'create' && exists)
            throw new McpAdminError('MCP_SERVER_EXISTS', `mcp.yaml already has a server named "${input.name}"`, 'choose another name, or edit that server', [
              { path: 'name', message: `"${input.name}" is taken`, hint: 'choose another name' },
            ]);
          if (mode === 'update' && !exists) throw notFound(input.name, [...current.servers.keys()], this.deps.configFile);
          const existing = mode === 'update' && isPlainObject(raw[input.name]) ? (raw[input.name] as Record<string, unknown>) : undefined;
          if (mode === 'replace') servers.delete(input.name);
          const change = entryChange(input, existing, taken);
          for (const [name, value] of change.store) store.set(name, value);
          applyChange(doc, servers, input.name, change);
          touched.push(input.name);
        }
        return { touched, result: { store } };
      },
      check: (next) => {
        for (const op of ops) {
          if (op.kind !== 'put') continue;
          const load = next.servers.get(op.input.name);
          if (!load || isRejectedServer(load)) throw invalid(fieldErrorsOf(load && isRejectedServer(load) ? load.rejected : [], op.input));
        }
      },
    });
    for (const [name, value] of store) await this.deps.secrets.set(mcpValueSecretName(name), value);
    const removed = await this.forgetUnused(before);
    await this.reloadHost();
    return removed;
  }

  /** Stored values of `names` that no server of mcp.yaml refers to now. */
  private async forgetUnused(names: readonly string[]): Promise<number> {
    const { text } = this.file.read();
    const now = new Set(Object.values((loadYaml(text) as { servers?: Record<string, unknown> } | null)?.servers ?? {}).flatMap(storedNamesOf));
    let removed = 0;
    for (const name of new Set(names)) if (!now.has(name) && (await this.deps.secrets.delete(mcpValueSecretName(name)))) removed++;
    return removed;
  }

  private async reloadHost(): Promise<void> {
    try {
      await this.deps.reload();
    } catch (error) {
      // The file is written; the watcher reads it again on its next look.
      this.deps.logger.warn(`mcp.yaml was written but not reloaded now: ${(error as Error).message}`);
    }
  }

  // ── test connection ───────────────────────────────────────────────────────

  /**
   * Starts a server once and ends it: one of mcp.yaml by name (as written
   * now), any server the host knows by registry id (a plugin's goes
   * through the trust gate like every start), or a form before it is saved.
   */
  async test(target: TestTarget, timeoutMs = DEFAULT_TEST_TIMEOUT_MS): Promise<McpTestResult> {
    let definition: ServerDefinition;
    let pending = new Map<string, string>();
    if ('server' in target) {
      const input = parseServerInput(target.server);
      const made = this.definitionOfInput(input);
      if (!made.ok) return made.result;
      ({ definition, pending } = made);
    } else if (target.name.includes('::')) {
      const known = this.deps.runtime.definition(target.name);
      if (!known) throw new McpAdminError('MCP_SERVER_NOT_FOUND', `no server with registry id "${target.name}"`, 'see chatos registry servers for the ids');
      definition = known;
    } else {
      const { load } = this.file.read();
      if (load.kind === 'rejected') return refusedResult('MCP_CONFIG_BROKEN', load.problems);
      const server = load.servers.get(target.name);
      if (!server) throw notFound(target.name, [...load.servers.keys()], this.deps.configFile);
      if (isRejectedServer(server)) return refusedResult('MCP_SERVER_INVALID', server.rejected);
      definition = server;
    }
    const trial = await this.deps.runtime.tryStart(withPendingValues(definition, pending), timeoutMs);
    return testResultOf(trial, definition);
  }

  /** The definition a form would make, through the same loader as the file; values it would store are returned to fill in for the test only. */
  private definitionOfInput(input: McpServerInputParsed): { ok: true; definition: ServerDefinition; pending: Map<string, string> } | { ok: false; result: McpTestResult } {
    const { text, load } = this.file.read();
    if (load.kind === 'rejected') return { ok: false, result: refusedResult('MCP_CONFIG_BROKEN', load.problems) };
    const doc = parseDocument(text);
    const servers = serversMap(doc);
    const raw = rawServers(doc);
    const existing = isPlainObject(raw[input.name]) ? (raw[input.name] as Record<string, unknown>) : undefined;
    let change: EntryChange;
    try {
      change = entryChange(input, existing, new Set(Object.values(raw).flatMap(storedNamesOf)));
    } catch (error) {
      if (error instanceof McpAdminError)
        return { ok: false, result: { ok: false, code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}), stderr: [], fields: error.fields } };
      throw error;
    }
    applyChange(doc, servers, input.name, change);
    const next = parseMcpConfig(doc.toString({ lineWidth: 0 }), this.deps.configFile, this.deps.hostEnv);
    const server = next.kind === 'loaded' ? next.servers.get(input.name) : undefined;
    if (!server || isRejectedServer(server)) {
      const problems = server && isRejectedServer(server) ? server.rejected : next.kind === 'rejected' ? next.problems : [];
      const fields = fieldErrorsOf(problems, input);
      const first = problems.find((p) => p.severity === 'error');
      return { ok: false, result: { ok: false, code: 'MCP_SERVER_INVALID', message: first?.message ?? 'the server is not valid', ...(first?.hint ? { hint: first.hint } : {}), stderr: [], fields } };
    }
    return { ok: true, definition: server, pending: change.store };
  }

  // ── import ────────────────────────────────────────────────────────────────

  /** What importing `text` would do; nothing is written. */
  planImport(text: string, fileName?: string, storeSecrets = true): ImportPlan {
    const reading = this.readImport(text, fileName, storeSecrets);
    return { ...(reading.format ? { format: reading.format } : {}), entries: reading.candidates.map((c) => c.entry), problems: reading.problems };
  }

  /** Adds what the plan adds, in one write; conflicts are skipped, replaced or renamed as chosen. */
  async applyImport(text: string, fileName: string | undefined, options: ImportApplyOptions = {}): Promise<ImportResult> {
    const { choices, onConflict, only, storeSecrets } = ImportApplyOptionsSchema.parse(options);
    const reading = this.readImport(text, fileName, storeSecrets);
    if (reading.problems.length) {
      const first = reading.problems[0]!;
      throw new McpAdminError('IMPORT_INVALID', first.message, first.hint, [], reading.problems);
    }
    const chosen = new Map(choices.map((c) => [c.sourceName, c.choice]));
    const wanted = only ? new Set(only) : undefined;
    const result: ImportResult = { added: [], replaced: [], renamed: [], skipped: [], refused: [] };
    const ops: Op[] = [];
    for (const { entry, input } of reading.candidates) {
      if (wanted && !wanted.has(entry.sourceName)) continue;
      if (!input) {
        result.refused.push(entry.sourceName);
        continue;
      }
      if (entry.status !== 'conflict') {
        ops.push({ kind: 'put', input, mode: 'create' });
        result.added.push(input.name);
        continue;
      }
      const choice = chosen.get(entry.sourceName) ?? onConflict;
      if (choice === 'skip') result.skipped.push(entry.sourceName);
      else if (choice === 'replace') {
        ops.push({ kind: 'put', input, mode: 'replace' });
        result.replaced.push(input.name);
      } else {
        const to = entry.conflict!.suggestedName;
        ops.push({ kind: 'put', input: { ...input, name: to }, mode: 'create' });
        result.renamed.push({ from: entry.sourceName, to });
      }
    }
    if (ops.length) await this.write(ops);
    // A replaced server is another program under the old name: nothing decided about the old one carries over.
    for (const name of result.replaced) await this.forgetServer(name);
    await this.discoverSignIn([...result.added, ...result.replaced, ...result.renamed.map((r) => r.to)]);
    return result;
  }

  private readImport(text: string, fileName: string | undefined, storeSecrets: boolean) {
    const existing = new Map<string, string>();
    const { text: current, load } = this.file.read();
    if (load.kind === 'rejected')
      throw new McpAdminError('MCP_CONFIG_BROKEN', `${this.deps.configFile} has errors, so nothing is imported into it until they are fixed`, load.problems[0]?.hint, [], load.problems);
    for (const [name, raw] of Object.entries((loadYaml(current) as { servers?: Record<string, unknown> } | null)?.servers ?? {})) {
      existing.set(name, launchLine(entryView(name, raw, [], this.deps.hostEnv, () => false)));
    }
    return readImport(text, { ...(fileName ? { fileName } : {}), existing, homeDir: this.deps.templates.homeDir, storeSecrets });
  }

  // ── templates ─────────────────────────────────────────────────────────────

  templates(): McpTemplate[] {
    return listTemplates(this.deps.templates);
  }

  /** Adds the server a template makes (under its own name unless `name` is given). */
  async addTemplate(id: string, name: string | undefined, values: Readonly<Record<string, string>> = {}): Promise<McpServerEntryView> {
    return this.add(templateInput(this.deps.templates, id, name, values));
  }
}

// ── helpers ───────────────────────────────────────────────────────────────────

function notFound(name: string, known: readonly string[], file: string): McpAdminError {
  const close = suggestClosest(name, known);
  return new McpAdminError(
    'MCP_SERVER_NOT_FOUND',
    `no server named "${name}" in ${file}${close.length ? `; did you mean ${close.map((c) => `"${c}"`).join(' or ')}?` : ''}`,
    'list them with chatos mcp list (or see the MCP servers page)',
  );
}

function refusedResult(code: string, problems: readonly Problem[]): McpTestResult {
  const first = problems.find((p) => p.severity === 'error') ?? problems[0];
  return { ok: false, code, message: first?.message ?? 'the server is not valid', ...(first?.hint ? { hint: first.hint } : {}), stderr: [] };
}

/** The problems the loader has with one server of the file. */
function problemsOf(load: ReturnType<McpYamlFile['read']>['load'], name: string): Problem[] {
  if (load.kind !== 'loaded') return [];
  const server = load.servers.get(name);
  if (server && isRejectedServer(server)) return server.rejected;
  const at = `servers.${name}`;
  return load.problems.filter((p) => p.path === at || p.path.startsWith(`${at}.`) || p.path.startsWith(`${at}[`) || p.path.startsWith(`servers[${JSON.stringify(name)}]`));
}

/** Puts an entry change into the `servers:` map: a new entry in the order of `set`, or key by key into the one there (its comments kept). */
function applyChange(doc: Document, servers: YAMLMap, name: string, change: EntryChange): void {
  const current = servers.get(name, true);
  if (!isMap(current)) {
    const fresh = Object.create(null) as Record<string, unknown>;
    for (const [key, value] of change.set) fresh[key] = value;
    servers.set(loaderSafeNode(doc, name), loaderSafeNode(doc, fresh));
    return;
  }
  for (const [key, value] of change.set) setValue(doc, current, key, value);
  for (const key of change.remove) current.delete(key);
}

const jsOf = (node: unknown) => (isNode(node) ? node.toJSON() : node);

/** Sets `key` to `value`, leaving what is equal as it is written and editing maps key by key, so comments inside them stay. */
function setValue(doc: Document, map: YAMLMap, key: string, value: unknown): void {
  const current = map.get(key, true);
  if (current !== undefined && canonicalJson(jsOf(current)) === canonicalJson(value)) return;
  if (isMap(current) && isPlainObject(value)) {
    const keys = current.items.map((pair) => (isScalar(pair.key) ? pair.key.value : pair.key));
    for (const k of keys) if (typeof k === 'string' && !Object.hasOwn(value, k)) current.delete(k);
    for (const [k, v] of Object.entries(value)) setValue(doc, current, k, v);
    return;
  }
  const node = loaderSafeNode(doc, value);
  // A list or map written inline stays inline.
  if (isCollection(current) && current.flow && isCollection(node)) node.flow = true;
  map.set(current === undefined ? loaderSafeNode(doc, key) : key, node);
}
