import { NodeRuntimeChoiceSchema, type EnvValue } from '../../../shared/mcp.js';
import { McpServerInputSchema, type FieldError, type McpServerEntryView, type McpServerInputParsed, type NamedValueInput, type ValueView } from '../../../shared/mcpAdmin.js';
import { emptyRecord, ownValue } from '../../../shared/ownKeys.js';
import type { Problem } from '../../../shared/problems.js';
import { formatJsonPath } from '../../../shared/problemText.js';
import { quotedWord, visibleInline } from '../../../shared/visibleText.js';
import { isPlainObject } from '../../plainObject.js';
import { mcpYamlServerId } from '../config/mcpConfigLoader.js';
import { McpAdminError } from './mcpAdminError.js';

/**
 * Between a form (McpServerInput) and an mcp.yaml entry. Pure: the caller
 * reads the file and the key store and writes them.
 *
 * The form owns a few keys of an entry; the rest (tools filters,
 * transforms, permissions, inheritEnv, written by hand) is the user's and
 * is never touched, except that switching transport removes the other
 * transport's fields, which the loader would only warn are ignored.
 */

export type ValueField = 'env' | 'headers';

/** What an edit does to one entry: keys to set (in this order), keys to remove, values for the key store. */
export interface EntryChange {
  set: [key: string, value: unknown][];
  remove: string[];
  /** Stored-value name → the value to keep in the key store. */
  store: Map<string, string>;
}

/** How a stored value of a server is named: `<server>.<env|headers>.<key>`, made a valid name, unique among `taken`. */
export function storedValueName(server: string, field: ValueField, key: string, taken: ReadonlySet<string>): string {
  const base = `${server}.${field}.${key.replace(/[^A-Za-z0-9_.-]/g, '_')}`.slice(0, 120);
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  return name;
}

/** Every `{ secret: NAME }` an entry (as the file holds it) refers to. */
export function storedNamesOf(raw: unknown): string[] {
  if (!isPlainObject(raw)) return [];
  return (['env', 'headers'] as const).flatMap((field) => {
    const values = raw[field];
    if (!isPlainObject(values)) return [];
    return Object.values(values).flatMap((v) => (isPlainObject(v) && typeof v.secret === 'string' ? [v.secret] : []));
  });
}

const ENV_KEY = /^[^=\0]+$/;
/** RFC 9110 token characters. */
const HEADER_KEY = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The input, parsed; a refusal names each field at fault. */
export function parseServerInput(input: unknown): McpServerInputParsed {
  const parsed = McpServerInputSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw invalid(parsed.error.issues.map((issue) => ({ path: fieldPath(issue.path), message: issue.message })));
}

export function invalid(fields: FieldError[]): McpAdminError {
  const first = fields[0];
  return new McpAdminError('MCP_SERVER_INVALID', first ? `${first.path || 'server'}: ${first.message}` : 'the server is not valid', first?.hint, fields);
}

function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
    .join('.')
    .replace(/\.\[/g, '[');
}

/**
 * The `env` or `headers` map an input writes, and the values it gives for
 * the key store. A stored value keeps its name across edits; one the form
 * leaves empty keeps its stored value, if there is one.
 */
function writtenValues(
  server: string,
  field: ValueField,
  list: readonly NamedValueInput[],
  existing: unknown,
  taken: Set<string>,
  change: EntryChange,
  errors: FieldError[],
): Record<string, EnvValue> {
  const written = emptyRecord<EnvValue>();
  const seen = new Set<string>();
  list.forEach(({ key, value }, i) => {
    const at = `${field}[${i}]`;
    if (seen.has(key)) errors.push({ path: `${at}.key`, message: `"${key}" is given twice`, hint: 'give each name once' });
    seen.add(key);
    if (field === 'env' && !ENV_KEY.test(key)) errors.push({ path: `${at}.key`, message: `"${key}" is not a variable name`, hint: 'use a name without "=", e.g. API_TOKEN' });
    if (field === 'headers' && !HEADER_KEY.test(key))
      errors.push({ path: `${at}.key`, message: `"${key}" is not a header name`, hint: 'use letters, digits and "-", e.g. Authorization or X-Api-Key' });
    let entry: EnvValue;
    if (value.kind === 'text') {
      if (field === 'headers' && /[\r\n\0]/.test(value.text)) errors.push({ path: `${at}.value`, message: 'a header value cannot hold a line break', hint: 'give the value on one line' });
      entry = value.text;
    } else if (value.kind === 'env') {
      entry = { env: value.name };
    } else {
      const before = isPlainObject(existing) ? ownValue(existing as Record<string, unknown>, key) : undefined;
      const kept = isPlainObject(before) && typeof before.secret === 'string' ? before.secret : undefined;
      if (value.value === undefined && kept === undefined) {
        errors.push({ path: `${at}.value`, message: 'no value is stored for it yet', hint: 'enter the value to keep in the key store' });
        return;
      }
      const name = kept ?? storedValueName(server, field, key, taken);
      taken.add(name);
      if (value.value !== undefined) change.store.set(name, value.value);
      entry = { secret: name };
    }
    // defineProperty: a "__proto__" name stays a plain key.
    Object.defineProperty(written, key, { value: entry, enumerable: true, writable: true, configurable: true });
  });
  return written;
}

/**
 * What the form's input does to an entry (`existing`: the entry as the file
 * holds it, for an edit). `taken`: stored-value names in use in the file.
 */
export function entryChange(input: McpServerInputParsed, existing: Record<string, unknown> | undefined, taken: Set<string>): EntryChange {
  const change: EntryChange = { set: [], remove: [], store: new Map() };
  const errors: FieldError[] = [];
  const set = (key: string, value: unknown) => change.set.push([key, value]);
  const setOrRemove = (key: string, value: unknown, keep: boolean) => (keep ? set(key, value) : change.remove.push(key));
  if (existing && Object.hasOwn(existing, 'transport')) set('transport', input.transport);
  if (input.transport === 'stdio') {
    set('command', input.command ?? '');
    setOrRemove('args', input.args, input.args.length > 0);
    const env = writtenValues(input.name, 'env', input.env, existing?.env, taken, change, errors);
    setOrRemove('env', env, Object.keys(env).length > 0);
    setOrRemove('cwd', input.cwd, input.cwd !== undefined && input.cwd !== '');
    if (input.nodeRuntime !== undefined) setOrRemove('nodeRuntime', input.nodeRuntime, input.nodeRuntime !== null);
    change.remove.push('url', 'headers', 'sessionId');
  } else {
    set('url', input.url ?? '');
    const headers = writtenValues(input.name, 'headers', input.headers, existing?.headers, taken, change, errors);
    setOrRemove('headers', headers, Object.keys(headers).length > 0);
    change.remove.push('command', 'args', 'env', 'cwd', 'inheritEnv', 'nodeRuntime');
  }
  if (input.disabled !== undefined) setOrRemove('disabled', true, input.disabled);
  if (input.timeoutMs !== undefined) set('timeout', input.timeoutMs);
  if (input.allowMain !== undefined) set('allowMain', input.allowMain);
  if (input.allowSub !== undefined) set('allowSub', input.allowSub);
  if (errors.length) throw invalid(errors);
  return change;
}

/**
 * The loader's problems with an edited server, as fields of the input that
 * made it: `servers.x.url` → `url`, `servers.x.env.TOKEN` → `env[2].value`.
 */
export function fieldErrorsOf(problems: readonly Problem[], input: McpServerInputParsed): FieldError[] {
  const at = ['servers', input.name];
  const known = new Map<string, string>([[formatJsonPath(at), 'name']]);
  for (const field of ['transport', 'command', 'args', 'cwd', 'nodeRuntime', 'url', 'inheritEnv', 'disabled', 'allowMain', 'allowSub'] as const) known.set(formatJsonPath([...at, field]), field);
  known.set(formatJsonPath([...at, 'timeout']), 'timeoutMs');
  input.args.forEach((_arg, i) => known.set(formatJsonPath([...at, 'args', i]), `args[${i}]`));
  for (const field of ['env', 'headers'] as const) {
    known.set(formatJsonPath([...at, field]), field);
    input[field].forEach(({ key }, i) => known.set(formatJsonPath([...at, field, key]), `${field}[${i}].value`));
  }
  return problems
    .filter((p) => p.severity === 'error')
    .map((p) => {
      // The longest known path the problem's path starts with names the field.
      let best = '';
      for (const candidate of known.keys()) if ((p.path === candidate || p.path.startsWith(`${candidate}.`) || p.path.startsWith(`${candidate}[`)) && candidate.length > best.length) best = candidate;
      return { path: best ? known.get(best)! : p.path, message: p.message, ...(p.hint ? { hint: p.hint } : {}) };
    });
}

// ── views ───────────────────────────────────────────────────────────────────

const FORM_KEYS = new Set(['transport', 'command', 'args', 'env', 'cwd', 'nodeRuntime', 'url', 'headers', 'disabled', 'timeout', 'allowMain', 'allowSub']);

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const nodeRuntimeOf = (value: unknown) => {
  const parsed = NodeRuntimeChoiceSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
};

function valueView(value: unknown, hostEnv: NodeJS.ProcessEnv, isStored: (name: string) => boolean): ValueView {
  if (isPlainObject(value) && typeof value.env === 'string') return { kind: 'env', name: value.env, set: ownValue(hostEnv, value.env) !== undefined };
  if (isPlainObject(value) && typeof value.secret === 'string') return { kind: 'secret', set: isStored(value.secret) };
  return { kind: 'text', text: typeof value === 'string' ? value : (JSON.stringify(value) ?? '') };
}

function valuesView(values: unknown, hostEnv: NodeJS.ProcessEnv, isStored: (name: string) => boolean) {
  if (!isPlainObject(values)) return [];
  return Object.entries(values).map(([key, value]) => ({ key, value: valueView(value, hostEnv, isStored) }));
}

/** An entry as the file holds it, for the edit form and `chatos mcp list`: leniently, so a broken entry can be opened and fixed. */
export function entryView(name: string, raw: unknown, problems: Problem[], hostEnv: NodeJS.ProcessEnv, isStored: (name: string) => boolean): McpServerEntryView {
  const entry = isPlainObject(raw) ? raw : {};
  const written = text(entry.transport);
  const transport =
    written === 'stdio' || written === 'streamable_http' ? written : entry.url !== undefined && entry.command === undefined ? 'streamable_http' : entry.command !== undefined ? 'stdio' : undefined;
  const number = (value: unknown) => (typeof value === 'number' ? value : undefined);
  const flag = (value: unknown) => (typeof value === 'boolean' ? value : undefined);
  const view: McpServerEntryView = {
    name,
    id: mcpYamlServerId(name),
    ...(transport ? { transport } : {}),
    args: Array.isArray(entry.args) ? entry.args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))) : [],
    env: valuesView(entry.env, hostEnv, isStored),
    headers: valuesView(entry.headers, hostEnv, isStored),
    disabled: entry.disabled === true,
    otherKeys: Object.keys(entry).filter((key) => !FORM_KEYS.has(key)),
    problems,
  };
  const optional: [keyof McpServerEntryView, unknown][] = [
    ['command', text(entry.command)],
    ['cwd', text(entry.cwd)],
    ['nodeRuntime', nodeRuntimeOf(entry.nodeRuntime)],
    ['url', text(entry.url)],
    ['timeoutMs', number(entry.timeout)],
    ['allowMain', flag(entry.allowMain)],
    ['allowSub', flag(entry.allowSub)],
  ];
  for (const [key, value] of optional) if (value !== undefined) Object.assign(view, { [key]: value });
  return view;
}

/** How a server starts, in one line (stored values masked, host variables by name). */
export function launchLine(view: Pick<McpServerEntryView, 'transport' | 'command' | 'args' | 'url'>): string {
  if (view.transport === 'streamable_http') return visibleInline(view.url ?? '');
  return [view.command ?? '', ...view.args].map(quotedWord).join(' ');
}
