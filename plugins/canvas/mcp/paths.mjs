// The patch language's paths and which op each takes (docs/rules/canvas.md#patches),
// written down once as data: the engine applies it, the prompts and the
// error messages quote it. Pure: no I/O.
import { ITEM_ID_PATTERN, KEY_PATTERN } from './uiSchema.mjs';

/**
 * Every path form, with the ops it takes. `createOps` are allowed only in a
 * `__CREATE__` call (the create example of docs/rules/canvas.md#instances sets the whole meta and
 * state); elsewhere they are an immutable part of the schema.
 *
 * | path form              | ops                 | in a create only |
 * |------------------------|---------------------|------------------|
 * | state.params.{key}     | set                 |                  |
 * | state.runtime.{key}    | set                 |                  |
 * | state.params           | set, clear          |                  |
 * | state.runtime          | set, clear          |                  |
 * | state                  |                     | set              |
 * | blocks / actions       | set, replace        |                  |
 * | blocks+ / actions+     | add                 |                  |
 * | blocks-{index}         | set, replace        |                  |
 * | blocks["id"]           | set, replace        |                  |
 * | blocks-"id"            | remove              |                  |
 * | layout                 | set                 |                  |
 * | meta.status, meta.step | set                 |                  |
 * | meta                   |                     | set              |
 * | meta.pageKey           | (never: immutable)  |                  |
 */
export const PATH_FORMS = Object.freeze([
  { kind: 'key', form: 'state.params.{key}', example: 'state.params.count', ops: ['set'], createOps: [] },
  { kind: 'key', form: 'state.runtime.{key}', example: 'state.runtime.status', ops: ['set'], createOps: [] },
  { kind: 'bag', form: 'state.params', example: 'state.params', ops: ['set', 'clear'], createOps: [] },
  { kind: 'bag', form: 'state.runtime', example: 'state.runtime', ops: ['set', 'clear'], createOps: [] },
  { kind: 'state', form: 'state', example: 'state', ops: [], createOps: ['set'] },
  { kind: 'list', form: 'blocks', example: 'blocks', ops: ['set', 'replace'], createOps: [] },
  { kind: 'append', form: 'blocks+', example: 'blocks+', ops: ['add'], createOps: [] },
  { kind: 'index', form: 'blocks-{index}', example: 'blocks-0', ops: ['set', 'replace'], createOps: [] },
  { kind: 'byId', form: 'blocks["id"]', example: 'blocks["form_block"]', ops: ['set', 'replace'], createOps: [] },
  { kind: 'removeId', form: 'blocks-"id"', example: 'blocks-"form_block"', ops: ['remove'], createOps: [] },
  { kind: 'list', form: 'actions', example: 'actions', ops: ['set', 'replace'], createOps: [] },
  { kind: 'append', form: 'actions+', example: 'actions+', ops: ['add'], createOps: [] },
  { kind: 'index', form: 'actions-{index}', example: 'actions-0', ops: ['set', 'replace'], createOps: [] },
  { kind: 'byId', form: 'actions["id"]', example: 'actions["submit"]', ops: ['set', 'replace'], createOps: [] },
  { kind: 'removeId', form: 'actions-"id"', example: 'actions-"submit"', ops: ['remove'], createOps: [] },
  { kind: 'layout', form: 'layout', example: 'layout', ops: ['set'], createOps: [] },
  { kind: 'metaStatus', form: 'meta.status', example: 'meta.status', ops: ['set'], createOps: [] },
  { kind: 'metaStep', form: 'meta.step', example: 'meta.step', ops: ['set'], createOps: [] },
  { kind: 'meta', form: 'meta', example: 'meta', ops: [], createOps: ['set'] },
  { kind: 'pageKey', form: 'meta.pageKey', example: 'meta.pageKey', ops: [], createOps: [] },
]);

/** Each op and the path forms it takes (the op table of docs/rules/canvas.md#patches, derived from PATH_FORMS so the two never disagree). */
export const OP_PATHS = Object.freeze(Object.fromEntries(['set', 'add', 'replace', 'remove', 'clear'].map((op) => [op, PATH_FORMS.filter((f) => f.ops.includes(op)).map((f) => f.form)])));

const ALL_FORMS = PATH_FORMS.filter((f) => f.kind !== 'pageKey')
  .map((f) => f.form)
  .join(', ');

export class PathError extends Error {
  /** @param {'INVALID_PATH'} code */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const invalid = (path, why) => new PathError('INVALID_PATH', `"${path}" is not a valid path: ${why}`);

/** A quoted id as in `blocks["form_block"]`: a JSON string holding a valid id. */
function quotedId(path, text, area) {
  let id;
  try {
    id = JSON.parse(text);
  } catch {
    throw invalid(path, `the id must be in double quotes, e.g. ${area}["form_block"]`);
  }
  if (typeof id !== 'string' || !ITEM_ID_PATTERN.test(id)) throw invalid(path, 'an id is 1–64 letters, digits, _ . : or - (not starting with . : or -)');
  return id;
}

/**
 * @typedef {{ kind: 'key', bag: 'params' | 'runtime', key: string }
 *   | { kind: 'bag', bag: 'params' | 'runtime' }
 *   | { kind: 'state' | 'layout' | 'metaStatus' | 'metaStep' | 'meta' | 'pageKey' }
 *   | { kind: 'list' | 'append', area: 'blocks' | 'actions' }
 *   | { kind: 'index', area: 'blocks' | 'actions', index: number }
 *   | { kind: 'byId' | 'removeId', area: 'blocks' | 'actions', id: string }} ParsedPath
 */

/**
 * Parses one path of the grammar of docs/rules/canvas.md#paths; throws a PathError (INVALID_PATH)
 * that says what is wrong and which forms exist. Common slips (JSON
 * Pointer, `blocks[0]`, an unquoted id) get a message naming the right form.
 * @param {string} path
 * @returns {ParsedPath & { form: string }}
 */
export function parsePath(path) {
  const parsed = parseKnown(path);
  const form = PATH_FORMS.find((f) => f.kind === parsed.kind && (!('area' in parsed) || f.form.startsWith(parsed.area)) && (!('bag' in parsed) || f.form.startsWith(`state.${parsed.bag}`)));
  return { ...parsed, form: form.form };
}

function parseKnown(path) {
  if (path.startsWith('/')) throw invalid(path, `paths are not JSON Pointers; write e.g. state.params.count or blocks+ (forms: ${ALL_FORMS})`);
  const state = /^state\.(params|runtime)(?:\.(.*))?$/s.exec(path);
  if (state) {
    const bag = state[1];
    if (state[2] === undefined) return { kind: 'bag', bag };
    if (!KEY_PATTERN.test(state[2])) throw invalid(path, `a key is one segment of 1–64 letters, digits, _ $ or -, e.g. state.${bag}.count (no dots: values may be objects, set the whole value)`);
    return { kind: 'key', bag, key: state[2] };
  }
  if (path === 'state') return { kind: 'state' };
  if (path.startsWith('state')) throw invalid(path, 'state paths are state.params.{key}, state.runtime.{key}, state.params, state.runtime');
  const list = /^(blocks|actions)(.*)$/s.exec(path);
  if (list) return parseListPath(path, list[1], list[2]);
  if (path === 'layout') return { kind: 'layout' };
  if (path.startsWith('layout')) throw invalid(path, 'set the whole layout: path "layout", value {"type": "single"}');
  if (path === 'meta') return { kind: 'meta' };
  if (path === 'meta.status') return { kind: 'metaStatus' };
  if (path === 'meta.step') return { kind: 'metaStep' };
  if (path === 'meta.pageKey') return { kind: 'pageKey' };
  if (path.startsWith('meta')) throw invalid(path, 'meta paths are meta.status and meta.step');
  throw invalid(path, `use one of: ${ALL_FORMS}`);
}

function parseListPath(path, area, rest) {
  if (rest === '') return { kind: 'list', area };
  if (rest === '+') return { kind: 'append', area };
  const index = /^-(\d{1,9})$/.exec(rest);
  if (index) return { kind: 'index', area, index: Number(index[1]) };
  if (rest.startsWith('-"')) return { kind: 'removeId', area, id: quotedId(path, rest.slice(1), area) };
  if (rest.startsWith('[') && rest.endsWith(']')) {
    const inner = rest.slice(1, -1);
    if (/^\d+$/.test(inner)) throw invalid(path, `an index is written ${area}-${inner}; ${area}["id"] names an item by its id`);
    return { kind: 'byId', area, id: quotedId(path, inner, area) };
  }
  if (rest.startsWith('-')) throw invalid(path, `quote the id: ${area}-"${rest.slice(1)}" removes it, ${area}["${rest.slice(1)}"] replaces it (${area}-0 is an index)`);
  throw invalid(path, `${area} paths are ${area}, ${area}+, ${area}-{index}, ${area}["id"], ${area}-"id"`);
}

/** The path form's entry in PATH_FORMS. */
export const formOf = (form) => PATH_FORMS.find((f) => f.form === form);
