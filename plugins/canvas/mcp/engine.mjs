// The patch engine (docs/rules/canvas.md): applies one patch_ui_state call to the
// canvas's state, all or nothing, and answers get_schema and list_instances.
// Pure: no I/O, no clock, never mutates its input. The store (store.mjs)
// runs calls through it one at a time and persists what it returns.
import { formOf, OP_PATHS, parsePath, PATH_FORMS, PathError } from './paths.mjs';
import {
  ActionSchema,
  BlockSchema,
  CREATE,
  DELETE,
  demoSchema,
  emptySchema,
  INSTANCE_ID_PATTERN,
  isJsonValue,
  isPlainObject,
  LayoutSchema,
  LIMITS,
  MetaSchema,
  MetaStatusSchema,
  PATCH_OPS,
  StateBagSchema,
  StateSchema,
  StepSchema,
  UiSchemaSchema,
} from './uiSchema.mjs';

export const DEFAULT_INSTANCE = 'demo';

/**
 * @typedef {import('zod').infer<typeof UiSchemaSchema>} UiSchema
 * @typedef {{ instance_id: string, revision: number, schema: UiSchema }} Instance
 * @typedef {{ seq: number, instances: Instance[] }} CanvasState  `seq` grows with every change of any instance; an instance's revision is the seq of its last change, so it only grows, even across a delete and a create of the same id.
 * @typedef {{ code: string, message: string, patch_index?: number, path?: string }} CanvasError
 * @typedef {{ ok: true, state: CanvasState, result: Record<string, unknown>, changed: boolean } | { ok: false, error: CanvasError }} CallOutcome
 */

/** The state a new store starts with: the demo instance only. */
export function initialState() {
  return { seq: 1, instances: [{ instance_id: DEFAULT_INSTANCE, revision: 1, schema: demoSchema() }] };
}

class CanvasError extends Error {
  constructor(code, message, extra = {}) {
    super(message);
    this.code = code;
    this.extra = extra;
  }
}

const fail = (code, message, extra) => {
  throw new CanvasError(code, message, extra);
};

/** zod's first issue as one line a model can act on: where, what. */
function structureMessage(what, error) {
  const issue = error.issues[0];
  const where = [what, ...issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))].join('').replace(/\.\[/g, '[');
  const keys = issue.code === 'unrecognized_keys' ? ` (${issue.keys.map((k) => `"${k}"`).join(', ')} not allowed here)` : '';
  return `${where}: ${issue.message}${keys}`;
}

function parseOr(schema, value, what) {
  const parsed = schema.safeParse(value);
  if (!parsed.success) fail('INVALID_STRUCTURE', structureMessage(what, parsed.error));
  return parsed.data;
}

/** A block or action with the id its path names, when the value leaves it out. */
const withId = (value, id) => (isPlainObject(value) && value.id === undefined && id !== undefined ? { ...value, id } : value);

const itemSchema = (area) => (area === 'blocks' ? BlockSchema : ActionSchema);
const itemWord = (area) => (area === 'blocks' ? 'block' : 'action');

function parseItem(area, value, what) {
  if (!isPlainObject(value)) fail('INVALID_STRUCTURE', `${what} must be an object (a ${itemWord(area)}), got ${kindOf(value)}`);
  if (area === 'blocks' && value.type !== undefined && value.type !== 'form') fail('INVALID_STRUCTURE', `${what}.type: "${String(value.type)}" is not supported; supported block types: form`);
  return parseOr(itemSchema(area), value, what);
}

function parseList(area, value, what) {
  if (!Array.isArray(value)) fail('INVALID_STRUCTURE', `${what} must be an array of ${area}, got ${kindOf(value)}`);
  return value.map((item, i) => parseItem(area, item, `${what}[${i}]`));
}

const kindOf = (value) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`);

/** Ids are unique per list, field keys per block. */
function checkUnique(schema) {
  for (const area of ['blocks', 'actions']) {
    const seen = new Set();
    for (const item of schema[area]) {
      if (seen.has(item.id)) fail('DUPLICATE_ID', `two ${area} have the id "${item.id}"; ids must be unique within ${area} (pick another id, or replace the existing one with ${area}["${item.id}"])`);
      seen.add(item.id);
    }
  }
  for (const block of schema.blocks) {
    const keys = new Set();
    for (const field of block.props.fields) {
      if (keys.has(field.key)) fail('DUPLICATE_ID', `block "${block.id}" has two fields with the key "${field.key}"; field keys must be unique within a form`);
      keys.add(field.key);
    }
  }
}

/** Sets an own property, whatever the key (`__proto__` is a key like any other here). */
function withKey(bag, key, value) {
  const next = { ...bag };
  Object.defineProperty(next, key, { value, enumerable: true, writable: true, configurable: true });
  return next;
}

const cloneJson = (value) => structuredClone(value);

function findIndexById(list, id, area, path) {
  const index = list.findIndex((item) => item.id === id);
  if (index < 0) {
    const ids = list.map((item) => `"${item.id}"`).join(', ');
    fail('PATH_NOT_FOUND', `no ${itemWord(area)} with id "${id}" in ${area} (ids: ${ids || 'none'}); to add one use op "add" on ${area}+`, { path });
  }
  return index;
}

function checkIndex(list, index, area, path) {
  if (index >= list.length) {
    const range = list.length === 0 ? `${area} is empty` : `${area} has ${list.length} item(s), indexes 0–${list.length - 1}`;
    fail('PATH_NOT_FOUND', `no ${itemWord(area)} at index ${index}: ${range}; to append use op "add" on ${area}+`, { path });
  }
}

/**
 * Applies one patch to a schema (a fresh object; the input is not touched).
 * @param {UiSchema} schema
 * @param {unknown} patch
 * @param {boolean} creating inside a `__CREATE__` call
 */
function applyPatch(schema, patch, creating) {
  if (!isPlainObject(patch)) fail('INVALID_STRUCTURE', `a patch must be an object {"op", "path", "value"?}, got ${kindOf(patch)}`);
  const { op, path } = patch;
  if (typeof op !== 'string' || !PATCH_OPS.includes(op)) {
    const special = op === 'create' || op === 'delete' ? ` (to ${op} an instance, call patch_ui_state with instance_id "${op === 'create' ? CREATE : DELETE}")` : '';
    fail('INVALID_OP', `unknown op ${JSON.stringify(op ?? null)}${special}; ops: ${PATCH_OPS.join(', ')}`);
  }
  if (typeof path !== 'string') fail('INVALID_PATH', `"path" must be a string, e.g. "state.params.count"`);
  const parsed = parsePath(path);
  const form = formOf(parsed.form);
  if (parsed.kind === 'pageKey') fail('SCHEMA_MUTATION', 'meta.pageKey is fixed when an instance is created; patchable meta paths are meta.status and meta.step', { path });
  if (!form.ops.includes(op)) {
    if (form.createOps.includes(op) && !creating) {
      fail(
        'SCHEMA_MUTATION',
        `"${path}" can be set only while creating an instance (instance_id "${CREATE}"); on an existing one patch its parts instead: ${PATH_FORMS.filter(
          (f) => f.form.startsWith(`${path}.`) && f.ops.length > 0,
        )
          .map((f) => f.form)
          .join(', ')}`,
        { path },
      );
    }
    if (!form.createOps.includes(op)) {
      const takes = [...form.ops, ...(creating ? form.createOps : [])];
      fail('INVALID_OP', `op "${op}" is not allowed on ${parsed.form}; that path takes ${takes.length ? takes.join(', ') : 'no op'}, and "${op}" takes ${OP_PATHS[op].join(', ')}`, { path });
    }
  }
  const needsValue = op === 'set' || op === 'add' || op === 'replace';
  if (needsValue && !Object.hasOwn(patch, 'value')) fail('MISSING_VALUE', `op "${op}" on ${path} needs a "value"`, { path });
  const value = patch.value;
  const next = { ...schema };

  switch (parsed.kind) {
    case 'key': {
      if (!isJsonValue(value)) fail('INVALID_STRUCTURE', `the value for ${path} must be JSON (string, number, boolean, null, array or object; at most ${LIMITS.jsonDepth} levels)`, { path });
      next.state = { ...schema.state, [parsed.bag]: withKey(schema.state[parsed.bag], parsed.key, cloneJson(value)) };
      return next;
    }
    case 'bag': {
      const bag = op === 'clear' ? {} : cloneJson(parseOr(StateBagSchema, value, path));
      next.state = { ...schema.state, [parsed.bag]: bag };
      return next;
    }
    case 'state':
      next.state = cloneJson(parseOr(StateSchema, value, path));
      return next;
    case 'meta':
      next.meta = parseOr(MetaSchema, value, path);
      return next;
    case 'metaStatus':
      next.meta = { ...schema.meta, status: parseOr(MetaStatusSchema, value, path) };
      return next;
    case 'metaStep':
      next.meta = { ...schema.meta, step: parseOr(StepSchema, value, path) };
      return next;
    case 'layout':
      next.layout = parseOr(LayoutSchema, value, path);
      return next;
    case 'list':
      next[parsed.area] = parseList(parsed.area, value, path);
      return next;
    case 'append':
      next[parsed.area] = [...schema[parsed.area], parseItem(parsed.area, value, path)];
      return next;
    case 'index': {
      const list = schema[parsed.area];
      checkIndex(list, parsed.index, parsed.area, path);
      const items = [...list];
      items[parsed.index] = parseItem(parsed.area, withId(value, list[parsed.index].id), path);
      next[parsed.area] = items;
      return next;
    }
    case 'byId': {
      const list = schema[parsed.area];
      const index = findIndexById(list, parsed.id, parsed.area, path);
      const items = [...list];
      items[index] = parseItem(parsed.area, withId(value, parsed.id), path);
      next[parsed.area] = items;
      return next;
    }
    case 'removeId': {
      const list = schema[parsed.area];
      const index = findIndexById(list, parsed.id, parsed.area, path);
      next[parsed.area] = list.filter((_, i) => i !== index);
      return next;
    }
  }
  throw new Error(`unhandled path kind ${parsed.kind}`);
}

/** Applies every patch in order to a copy; the first failure names its patch and nothing is kept. */
function applyPatches(schema, patches, creating) {
  if (!Array.isArray(patches)) fail('INVALID_STRUCTURE', `"patches" must be an array of {"op", "path", "value"?}, got ${kindOf(patches)}`);
  if (patches.length > LIMITS.patchesPerCall) fail('INVALID_STRUCTURE', `at most ${LIMITS.patchesPerCall} patches per call (got ${patches.length}); split them over several calls`);
  let next = schema;
  patches.forEach((patch, index) => {
    try {
      next = applyPatch(next, patch, creating);
    } catch (error) {
      const at = { patch_index: index, ...(typeof patch?.path === 'string' ? { path: patch.path } : {}) };
      if (error instanceof PathError || error instanceof CanvasError) throw new CanvasError(error.code, `patches[${index}]: ${error.message}`, { ...at, ...error.extra });
      throw error;
    }
  });
  if (next === schema) return schema;
  checkUnique(next);
  // A last check of the whole: every part was checked as it was set, so this catches only what spans parts.
  parseOr(UiSchemaSchema, next, 'schema');
  const bytes = JSON.stringify(next).length;
  if (bytes > LIMITS.schemaBytes) fail('INVALID_STRUCTURE', `the instance would hold ${bytes} bytes of JSON, over the limit of ${LIMITS.schemaBytes}; keep large data out of the UI state`);
  return next;
}

function checkNewId(id, field) {
  if (id === undefined || id === null || id === '') fail('MISSING_VALUE', `"${field}" is required with instance_id "${field === 'new_instance_id' ? CREATE : DELETE}"`);
  if (typeof id !== 'string' || !INSTANCE_ID_PATTERN.test(id))
    fail('INVALID_INSTANCE', `${field} ${JSON.stringify(id)} is not a valid instance id: use 1–64 letters, digits, _ . or - (starting with a letter or digit)`);
  return id;
}

const knownIds = (state) => state.instances.map((i) => `"${i.instance_id}"`).join(', ') || 'none';

function findInstance(state, id) {
  const instance = state.instances.find((i) => i.instance_id === id);
  if (!instance) fail('INVALID_INSTANCE', `no instance ${JSON.stringify(id)}; instances: ${knownIds(state)} (create one with instance_id "${CREATE}" and new_instance_id)`);
  return instance;
}

/**
 * One patch_ui_state call, all or nothing.
 * @param {CanvasState} state
 * @param {{ instance_id?: unknown, patches?: unknown, new_instance_id?: unknown, target_instance_id?: unknown }} call
 * @returns {CallOutcome}
 */
export function applyCall(state, call) {
  try {
    return applyCallOrThrow(state, call);
  } catch (error) {
    if (!(error instanceof CanvasError)) throw error;
    return { ok: false, error: { code: error.code, message: error.message, ...error.extra } };
  }
}

function applyCallOrThrow(state, call) {
  const { instance_id: instanceId, patches = [] } = call ?? {};
  if (typeof instanceId !== 'string' || instanceId === '') fail('INVALID_INSTANCE', `"instance_id" must name an instance (instances: ${knownIds(state)}), or be "${CREATE}" / "${DELETE}"`);
  const seq = state.seq + 1;

  if (instanceId === CREATE) {
    const id = checkNewId(call.new_instance_id, 'new_instance_id');
    if (state.instances.some((i) => i.instance_id === id)) fail('INSTANCE_EXISTS', `an instance "${id}" exists already; pick another new_instance_id, or patch "${id}" directly`);
    if (state.instances.length >= LIMITS.instances) fail('INVALID_INSTANCE', `there are ${state.instances.length} instances, the most a canvas keeps; delete one first (instance_id "${DELETE}")`);
    const schema = applyPatches(emptySchema(id), patches, true);
    const instance = { instance_id: id, revision: seq, schema };
    return {
      ok: true,
      changed: true,
      state: { seq, instances: [...state.instances, instance] },
      result: { status: 'success', instance_id: id, revision: seq, applied: patches.length, created: true, schema },
    };
  }

  if (instanceId === DELETE) {
    const id = checkNewId(call.target_instance_id, 'target_instance_id');
    if (!Array.isArray(patches) || patches.length > 0) fail('INVALID_OP', `a delete takes no patches ("patches": []); to change an instance, call patch_ui_state with its instance_id`);
    findInstance(state, id);
    if (id === DEFAULT_INSTANCE) fail('SCHEMA_MUTATION', `"${DEFAULT_INSTANCE}" is the default instance (what get_schema returns without an id) and cannot be deleted; reset it with patches instead`);
    return {
      ok: true,
      changed: true,
      state: { seq, instances: state.instances.filter((i) => i.instance_id !== id) },
      result: { status: 'success', instance_id: id, revision: seq, applied: 0, deleted: true },
    };
  }

  const instance = findInstance(state, instanceId);
  const schema = applyPatches(instance.schema, patches, false);
  if (schema === instance.schema) return { ok: true, changed: false, state, result: { status: 'success', instance_id: instanceId, revision: instance.revision, applied: 0, schema } };
  const updated = { instance_id: instanceId, revision: seq, schema };
  return {
    ok: true,
    changed: true,
    state: { seq, instances: state.instances.map((i) => (i === instance ? updated : i)) },
    result: { status: 'success', instance_id: instanceId, revision: seq, applied: patches.length, schema },
  };
}

/** get_schema: one instance (default "demo"). */
export function getSchema(state, instanceId = DEFAULT_INSTANCE) {
  try {
    const instance = findInstance(state, instanceId);
    return { ok: true, result: { status: 'success', instance_id: instance.instance_id, revision: instance.revision, schema: instance.schema } };
  } catch (error) {
    if (!(error instanceof CanvasError)) throw error;
    return { ok: false, error: { code: error.code, message: error.message } };
  }
}

/** list_instances: every instance in the order they were created. */
export function listInstances(state) {
  const instances = state.instances.map(({ instance_id, revision, schema }) => ({
    instance_id,
    page_key: schema.meta.pageKey,
    status: schema.meta.status,
    blocks_count: schema.blocks.length,
    actions_count: schema.actions.length,
    revision,
  }));
  return { status: 'success', instances, total: instances.length };
}

/** Checks a state read from disk: every instance's schema valid, ids unique, seq at least every revision. Throws an Error saying what is wrong. */
export function checkState(state) {
  if (!isPlainObject(state) || !Number.isSafeInteger(state.seq) || !Array.isArray(state.instances)) throw new Error('expected { "seq": <integer>, "instances": [...] }');
  const ids = new Set();
  for (const [i, instance] of state.instances.entries()) {
    if (!isPlainObject(instance) || typeof instance.instance_id !== 'string' || !INSTANCE_ID_PATTERN.test(instance.instance_id)) throw new Error(`instances[${i}] has no valid instance_id`);
    if (ids.has(instance.instance_id)) throw new Error(`instance "${instance.instance_id}" appears twice`);
    ids.add(instance.instance_id);
    if (!Number.isSafeInteger(instance.revision) || instance.revision > state.seq) throw new Error(`instance "${instance.instance_id}" has a revision that is not an integer up to seq`);
    const parsed = UiSchemaSchema.safeParse(instance.schema);
    if (!parsed.success) throw new Error(`instance "${instance.instance_id}": ${structureMessage('schema', parsed.error)}`);
    checkUnique(instance.schema);
  }
  return state;
}
