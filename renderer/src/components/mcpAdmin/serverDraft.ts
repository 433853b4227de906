import type { NodeRuntimeChoice } from '../../../../src/shared/mcp';
import type { McpServerEntryView, McpServerInput, McpTransportKind, NamedValueInput, ValueView } from '../../../../src/shared/mcpAdmin';

/**
 * The add/edit form's values, and the input the host takes. A stored value
 * is never in a draft: a row of kind `secret` holds only what the user
 * types now (empty keeps the stored one).
 */
export interface ValueRow {
  key: string;
  kind: 'text' | 'env' | 'secret';
  text?: string;
  name?: string;
  secret?: string;
  /** A value is stored already (edit). */
  stored?: boolean;
}

export interface ServerDraft {
  name: string;
  transport: McpTransportKind;
  command?: string;
  /** One argument per line. */
  args?: string;
  env: ValueRow[];
  cwd?: string;
  /** For a `node` command: which Node runs it; `default` leaves it to mcp.yaml's nodeRuntime block (auto unless set). */
  nodeRuntime?: NodeRuntimeChoice | 'default';
  url?: string;
  headers: ValueRow[];
  disabled: boolean;
  timeoutMs?: number | null;
}

export const EMPTY_DRAFT: ServerDraft = { name: '', transport: 'stdio', args: '', env: [], headers: [], disabled: false };

function rowOf({ key, value }: { key: string; value: ValueView }): ValueRow {
  if (value.kind === 'text') return { key, kind: 'text', text: value.text };
  if (value.kind === 'env') return { key, kind: 'env', name: value.name };
  return { key, kind: 'secret', stored: value.set };
}

export function draftFromView(view: McpServerEntryView): ServerDraft {
  return {
    name: view.name,
    transport: view.transport ?? 'stdio',
    ...(view.command !== undefined ? { command: view.command } : {}),
    args: view.args.join('\n'),
    env: view.env.map(rowOf),
    ...(view.cwd !== undefined ? { cwd: view.cwd } : {}),
    nodeRuntime: view.nodeRuntime ?? 'default',
    ...(view.url !== undefined ? { url: view.url } : {}),
    headers: view.headers.map(rowOf),
    disabled: view.disabled,
    ...(view.timeoutMs !== undefined ? { timeoutMs: view.timeoutMs } : {}),
  };
}

function values(rows: ValueRow[] | undefined): NamedValueInput[] {
  return (rows ?? []).map((row) => {
    const key = (row.key ?? '').trim();
    if (row.kind === 'env') return { key, value: { kind: 'env', name: (row.name ?? '').trim() } };
    if (row.kind === 'secret') return { key, value: row.secret ? { kind: 'secret', value: row.secret } : { kind: 'secret' } };
    return { key, value: { kind: 'text', text: row.text ?? '' } };
  });
}

const trimmed = (text: string | undefined) => (text ?? '').trim();

export function inputOf(draft: ServerDraft): McpServerInput {
  const common = { name: trimmed(draft.name), disabled: draft.disabled === true, ...(draft.timeoutMs ? { timeoutMs: draft.timeoutMs } : {}) };
  if (draft.transport === 'streamable_http') return { ...common, transport: 'streamable_http', url: trimmed(draft.url), headers: values(draft.headers) };
  const args = (draft.args ?? '')
    .split('\n')
    .map((a) => a.replace(/\r$/, ''))
    .filter((a) => a !== '');
  const nodeRuntime = draft.nodeRuntime === undefined ? {} : { nodeRuntime: draft.nodeRuntime === 'default' ? null : draft.nodeRuntime };
  return { ...common, transport: 'stdio', command: trimmed(draft.command), args, env: values(draft.env), ...(trimmed(draft.cwd) ? { cwd: trimmed(draft.cwd) } : {}), ...nodeRuntime };
}

/** Where a field error of the host goes in the form: `env[1].value` → the value input of row 1 (by its kind). */
export function formFieldOf(path: string, draft: ServerDraft): (string | number)[] | undefined {
  const row = /^(env|headers)\[(\d+)\]\.(key|value)$/.exec(path);
  if (row) {
    const list = row[1] as 'env' | 'headers';
    const index = Number(row[2]);
    if (row[3] === 'key') return [list, index, 'key'];
    const kind = draft[list][index]?.kind ?? 'text';
    return [list, index, kind === 'env' ? 'name' : kind === 'secret' ? 'secret' : 'text'];
  }
  if (/^args(\[\d+\])?$/.test(path)) return ['args'];
  const simple = ['name', 'command', 'cwd', 'nodeRuntime', 'url', 'timeoutMs', 'transport'];
  return simple.includes(path) ? [path] : undefined;
}
