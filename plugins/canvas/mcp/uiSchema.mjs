// The canvas's formats as zod schemas (docs/rules/canvas.md#values): the UI schema an instance
// holds, and the patches and calls that change it. Pure: no I/O. The patch
// engine (engine.mjs) validates with these; tests parse results back with them.
import { z } from 'zod';
import { LIMITS } from './limits.mjs';

export { LIMITS };

export const BLOCK_TYPES = Object.freeze(['form']);
export const FIELD_TYPES = Object.freeze(['text', 'number', 'textarea', 'select', 'checkbox']);
export const ACTION_STYLES = Object.freeze(['primary', 'secondary', 'danger']);
export const LAYOUT_TYPES = Object.freeze(['single']);
export const META_STATUSES = Object.freeze(['idle', 'submitted']);

/** Instance ids: what a model types, and safe as data anywhere (`__CREATE__` and `__DELETE__` are reserved). */
export const INSTANCE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** Block and action ids: quoted in paths (`blocks["form_block"]`), so no quotes or backslashes. */
export const ITEM_ID_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,63}$/;
/** Keys of state.params / state.runtime and of form fields: one path segment. */
export const KEY_PATTERN = /^[A-Za-z0-9_$-]{1,64}$/;

const ItemIdSchema = z.string().regex(ITEM_ID_PATTERN, { error: 'must be 1–64 letters, digits, _ . : or - (not starting with . : or -)' });
const KeySchema = z.string().regex(KEY_PATTERN, { error: 'must be 1–64 letters, digits, _ $ or -' });
const LabelSchema = z.string().min(1, { error: 'must not be empty' }).max(200);

/** A JSON value (what state.params / state.runtime hold): no undefined, NaN, functions or cycles, at most LIMITS.jsonDepth deep. */
export function isJsonValue(value, depth = 0) {
  if (depth > LIMITS.jsonDepth) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isJsonValue(item, depth + 1));
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every((item) => isJsonValue(item, depth + 1));
}

export const isPlainObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/**
 * state.params or state.runtime: an object of JSON values under any keys.
 * A custom check, not z.record: zod builds a new object and drops an own
 * `__proto__` key, and these keys are data that must survive as they are.
 */
export const StateBagSchema = z.custom((value) => isPlainObject(value) && Object.keys(value).every((key) => KEY_PATTERN.test(key)) && isJsonValue(value), {
  error: `must be an object whose keys are 1–64 letters, digits, _ $ or - and whose values are JSON (at most ${LIMITS.jsonDepth} levels deep)`,
});

export const StateSchema = z.strictObject({ params: StateBagSchema, runtime: StateBagSchema });

export const StepSchema = z
  .strictObject({ current: z.number().int().min(1), total: z.number().int().min(1).max(100) })
  .refine((step) => step.current <= step.total, { error: 'current must not be greater than total' });

export const MetaStatusSchema = z.enum(META_STATUSES, { error: `must be one of ${META_STATUSES.join(', ')}` });

export const MetaSchema = z.strictObject({
  pageKey: z.string().min(1).max(64),
  step: StepSchema,
  status: MetaStatusSchema,
});

export const LayoutSchema = z.strictObject({ type: z.enum(LAYOUT_TYPES, { error: `must be one of ${LAYOUT_TYPES.join(', ')}` }) });

const OptionSchema = z.union([z.string().min(1).max(200), z.strictObject({ label: LabelSchema, value: z.string().max(200) })], {
  error: 'an option is a string or { "label": "…", "value": "…" }',
});

const fieldBase = { label: LabelSchema, key: KeySchema, placeholder: z.string().max(200).optional(), required: z.boolean().optional() };

export const FieldSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ ...fieldBase, type: z.literal('text') }),
    z.strictObject({ ...fieldBase, type: z.literal('number'), min: z.number().optional(), max: z.number().optional(), step: z.number().positive().optional() }),
    z.strictObject({ ...fieldBase, type: z.literal('textarea'), rows: z.number().int().min(1).max(20).optional() }),
    z.strictObject({
      ...fieldBase,
      type: z.literal('select'),
      options: z.array(OptionSchema, { error: 'a select needs "options": a list of strings or { "label", "value" }' }).min(1, { error: 'a select needs at least one option' }).max(LIMITS.options),
    }),
    z.strictObject({ ...fieldBase, type: z.literal('checkbox') }),
  ],
  { error: (issue) => (issue.code === 'invalid_union' ? `type must be one of ${FIELD_TYPES.join(', ')}` : undefined) },
);

const FormBlockSchema = z.strictObject({
  id: ItemIdSchema,
  type: z.literal('form', { error: `must be one of ${BLOCK_TYPES.join(', ')}` }),
  /** Where the form's fields read and write their values. */
  bind: z.enum(['state.params', 'state.runtime'], { error: 'must be state.params or state.runtime' }).default('state.params'),
  props: z.strictObject({
    title: z.string().max(200).optional(),
    fields: z.array(FieldSchema).max(LIMITS.fieldsPerBlock),
  }),
});
export const BlockSchema = FormBlockSchema;

export const ActionSchema = z.strictObject({
  id: ItemIdSchema,
  label: LabelSchema,
  style: z.enum(ACTION_STYLES, { error: `must be one of ${ACTION_STYLES.join(', ')}` }).default('primary'),
  /** meta.status after a click (the page sends it with the form's values); unchanged when absent. */
  status: MetaStatusSchema.optional(),
});

/** One instance's UI: what get_schema returns. */
export const UiSchemaSchema = z.strictObject({
  meta: MetaSchema,
  state: StateSchema,
  layout: LayoutSchema,
  blocks: z.array(BlockSchema).max(LIMITS.blocks),
  actions: z.array(ActionSchema).max(LIMITS.actions),
});

export const PATCH_OPS = Object.freeze(['set', 'add', 'replace', 'remove', 'clear']);

/** One patch as a model writes it; the engine checks op, path and value with the codes of docs/rules/canvas.md#error-codes. */
export const PatchSchema = z.object({
  op: z.enum(PATCH_OPS).describe('set | add | replace | remove | clear'),
  path: z
    .string()
    .describe(
      'state.params.{key}, state.runtime.{key}, state.params, state.runtime, blocks, blocks+, blocks-{index}, blocks["id"], blocks-"id" (the same for actions), layout, meta.status, meta.step; in a create also meta and state',
    ),
  value: z.unknown().optional().describe('The value, for set, add and replace'),
});

export const CREATE = '__CREATE__';
export const DELETE = '__DELETE__';

/** patch_ui_state's arguments. */
export const PatchCallSchema = z.object({
  instance_id: z.string().describe(`The instance to patch (e.g. "demo"); "${CREATE}" creates one (with new_instance_id), "${DELETE}" deletes one (with target_instance_id)`),
  patches: z.array(PatchSchema).describe('Applied in order, all or nothing'),
  new_instance_id: z.string().optional().describe(`With "${CREATE}": the new instance's id`),
  target_instance_id: z.string().optional().describe(`With "${DELETE}": the instance to delete`),
});

export const GetSchemaCallSchema = z.object({
  instance_id: z.string().optional().describe('The instance; default "demo"'),
});

export const ERROR_CODES = Object.freeze([
  'INVALID_INSTANCE',
  'INVALID_OP',
  'INVALID_PATH',
  'PATH_NOT_FOUND',
  'SCHEMA_MUTATION',
  'MISSING_VALUE',
  'DUPLICATE_ID',
  'INSTANCE_EXISTS',
  'INVALID_STRUCTURE',
]);

export const CanvasErrorSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  /** Which patch failed (0-based), when one did. */
  patch_index: z.number().int().optional(),
  path: z.string().optional(),
});

/** A new instance before its create patches run. */
export function emptySchema(instanceId) {
  return {
    meta: { pageKey: instanceId, step: { current: 1, total: 1 }, status: 'idle' },
    state: { params: {}, runtime: {} },
    layout: { type: 'single' },
    blocks: [],
    actions: [],
  };
}

/** The default instance every store starts with: one form with each field type, one action. */
export function demoSchema() {
  return {
    meta: { pageKey: 'demo', step: { current: 1, total: 1 }, status: 'idle' },
    state: { params: { name: '', age: 30, bio: '', color: 'blue', subscribe: false }, runtime: {} },
    layout: { type: 'single' },
    blocks: [
      {
        id: 'profile',
        type: 'form',
        bind: 'state.params',
        props: {
          title: 'Profile',
          fields: [
            { label: 'Name', key: 'name', type: 'text', placeholder: 'Ada Lovelace', required: true },
            { label: 'Age', key: 'age', type: 'number', min: 0, max: 150 },
            { label: 'About you', key: 'bio', type: 'textarea', rows: 3 },
            {
              label: 'Favourite colour',
              key: 'color',
              type: 'select',
              options: [
                { label: 'Red', value: 'red' },
                { label: 'Green', value: 'green' },
                { label: 'Blue', value: 'blue' },
              ],
            },
            { label: 'Subscribe to news', key: 'subscribe', type: 'checkbox' },
          ],
        },
      },
    ],
    actions: [{ id: 'submit', label: 'Submit', style: 'primary', status: 'submitted' }],
  };
}

const ResultStatusSchema = z.enum(['success', 'error']);

/** patch_ui_state's structured result; on an error (isError) `error` says what and where. */
export const PatchResultSchema = z.object({
  status: ResultStatusSchema,
  instance_id: z.string(),
  /** The instance's revision after the call (a delete: the store's). */
  revision: z.number().int().optional(),
  applied: z.number().int().optional(),
  created: z.boolean().optional(),
  deleted: z.boolean().optional(),
  schema: UiSchemaSchema.optional(),
  error: CanvasErrorSchema.optional(),
});

export const GetSchemaResultSchema = z.object({
  status: ResultStatusSchema,
  instance_id: z.string(),
  revision: z.number().int().optional(),
  schema: UiSchemaSchema.optional(),
  error: CanvasErrorSchema.optional(),
});

export const InstanceSummarySchema = z.object({
  instance_id: z.string(),
  page_key: z.string(),
  status: MetaStatusSchema,
  blocks_count: z.number().int(),
  actions_count: z.number().int(),
  revision: z.number().int(),
});

export const ListInstancesResultSchema = z.object({
  status: z.literal('success'),
  instances: z.array(InstanceSummarySchema),
  total: z.number().int(),
});
