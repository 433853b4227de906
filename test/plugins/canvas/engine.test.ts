import { describe, expect, it } from 'vitest';
import { applyCall, checkState, getSchema, initialState, listInstances } from '../../../plugins/canvas/mcp/engine.mjs';
import { OP_PATHS, PATH_FORMS } from '../../../plugins/canvas/mcp/paths.mjs';
import { ERROR_CODES, LIMITS, PATCH_OPS, UiSchemaSchema } from '../../../plugins/canvas/mcp/uiSchema.mjs';

type State = ReturnType<typeof initialState>;
type Outcome = { ok: true; state: State; result: any; changed: boolean } | { ok: false; error: { code: string; message: string; patch_index?: number; path?: string } };

const field = { label: 'Field', key: 'field1', type: 'text' };
const block = (id: string) => ({ id, type: 'form', bind: 'state.params', props: { fields: [field] } });
const action = (id: string) => ({ id, label: 'Go', style: 'primary' });
const meta = { pageKey: 'form', step: { current: 1, total: 2 }, status: 'idle' };

/** A store with the demo and an instance "form" holding block "form_block" and action "submit": every example path of docs/rules/canvas.md#paths resolves on it. */
function fixture(): State {
  const created = applyCall(initialState(), {
    instance_id: '__CREATE__',
    new_instance_id: 'form',
    patches: [
      { op: 'set', path: 'blocks', value: [block('form_block'), block('second')] },
      { op: 'set', path: 'actions', value: [action('submit'), action('cancel')] },
      { op: 'set', path: 'state.params.count', value: 1 },
    ],
  }) as Outcome;
  if (!created.ok) throw new Error(created.error.message);
  return created.state;
}

function call(state: State, instance_id: string, patches: unknown[], extra: Record<string, unknown> = {}): Outcome {
  return applyCall(state, { instance_id, patches, ...extra }) as Outcome;
}

/** The fixture with instances added up to `count`. */
function manyInstances(count: number): State {
  let state = fixture();
  while (state.instances.length < count) {
    const created = call(state, '__CREATE__', [], { new_instance_id: `i${state.instances.length}` });
    if (!created.ok) throw new Error(created.error.message);
    state = created.state;
  }
  return state;
}

/** `{ a: { a: … 1 } }`, `depth` levels deep. */
const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) });

function errorOf(outcome: Outcome): { code: string; message: string; patch_index?: number; path?: string } {
  if (outcome.ok) throw new Error(`expected an error, got ${JSON.stringify(outcome.result)}`);
  return outcome.error;
}

/** A value that op may put at the path form (only asked where the op is allowed). */
function valueFor(form: string): unknown {
  if (form.endsWith('{key}')) return 42;
  if (form === 'state.params' || form === 'state.runtime') return { a: 1 };
  if (form === 'state') return { params: { x: 1 }, runtime: {} };
  if (form === 'blocks') return [block('b1')];
  if (form === 'actions') return [action('a1')];
  if (form === 'blocks+') return block('added');
  if (form === 'actions+') return action('added');
  if (form.startsWith('blocks')) return block('form_block');
  if (form.startsWith('actions')) return action('submit');
  if (form === 'layout') return { type: 'single' };
  if (form === 'meta.status') return 'submitted';
  if (form === 'meta.step') return { current: 2, total: 2 };
  if (form === 'meta') return meta;
  if (form === 'meta.pageKey') return 'renamed';
  throw new Error(`no value for ${form}`);
}

describe('the patch engine: every op on every path form of docs/rules/canvas.md#paths', () => {
  for (const form of PATH_FORMS) {
    for (const op of PATCH_OPS) {
      const allowed = form.ops.includes(op);
      const inCreate = form.createOps.includes(op);
      const expected = form.kind === 'pageKey' ? 'SCHEMA_MUTATION' : allowed ? 'ok' : inCreate ? 'SCHEMA_MUTATION' : 'INVALID_OP';
      it(`${op} ${form.example} → ${expected}`, () => {
        const state = fixture();
        const patch = op === 'remove' || op === 'clear' ? { op, path: form.example } : { op, path: form.example, value: valueFor(form.form) };
        const outcome = call(state, 'form', [patch]);
        if (expected !== 'ok') {
          const error = errorOf(outcome);
          expect(error.code).toBe(expected);
          expect(error.patch_index).toBe(0);
          expect(error.path).toBe(form.example);
          return;
        }
        if (!outcome.ok) throw new Error(outcome.error.message);
        expect(UiSchemaSchema.safeParse(outcome.result.schema).success).toBe(true);
        expect(outcome.result.revision).toBeGreaterThan(state.seq);
      });
      if (inCreate) {
        it(`${op} ${form.example} inside a __CREATE__ → ok`, () => {
          const outcome = call(fixture(), '__CREATE__', [{ op, path: form.example, value: valueFor(form.form) }], { new_instance_id: 'fresh' });
          expect(outcome.ok).toBe(true);
        });
      }
    }
  }

  it('the op table is that of docs/rules/canvas.md#patches: add only on the + paths, remove only on -"id", clear only on the state bags', () => {
    expect(OP_PATHS.add).toEqual(['blocks+', 'actions+']);
    expect(OP_PATHS.remove).toEqual(['blocks-"id"', 'actions-"id"']);
    expect(OP_PATHS.clear).toEqual(['state.params', 'state.runtime']);
    expect(OP_PATHS.replace).toEqual(['blocks', 'blocks-{index}', 'blocks["id"]', 'actions', 'actions-{index}', 'actions["id"]']);
  });

  it('each path form does what docs/rules/canvas.md#paths says', () => {
    let state = fixture();
    const apply = (patches: unknown[]) => {
      const outcome = call(state, 'form', patches);
      if (!outcome.ok) throw new Error(outcome.error.message);
      state = outcome.state;
      return outcome.result.schema;
    };
    expect(apply([{ op: 'set', path: 'state.params.count', value: 42 }]).state.params.count).toBe(42);
    expect(apply([{ op: 'set', path: 'state.runtime.status', value: 'busy' }]).state.runtime).toEqual({ status: 'busy' });
    expect(apply([{ op: 'clear', path: 'state.params' }]).state.params).toEqual({});
    expect(apply([{ op: 'add', path: 'blocks+', value: block('third') }]).blocks.map((b: any) => b.id)).toEqual(['form_block', 'second', 'third']);
    expect(apply([{ op: 'replace', path: 'blocks-0', value: { ...block('x'), props: { fields: [] } } }]).blocks[0]).toMatchObject({ id: 'x', props: { fields: [] } });
    // An item replaced by id keeps that id when the value leaves it out.
    expect(apply([{ op: 'replace', path: 'blocks["second"]', value: { type: 'form', props: { title: 'T', fields: [] } } }]).blocks[1]).toMatchObject({ id: 'second', props: { title: 'T' } });
    expect(apply([{ op: 'remove', path: 'blocks-"second"' }]).blocks.map((b: any) => b.id)).toEqual(['x', 'third']);
    expect(apply([{ op: 'replace', path: 'actions', value: [action('only')] }]).actions.map((a: any) => a.id)).toEqual(['only']);
    expect(apply([{ op: 'set', path: 'meta.status', value: 'submitted' }]).meta.status).toBe('submitted');
    expect(apply([{ op: 'set', path: 'meta.step', value: { current: 2, total: 3 } }]).meta.step).toEqual({ current: 2, total: 3 });
    expect(apply([{ op: 'set', path: 'layout', value: { type: 'single' } }]).layout).toEqual({ type: 'single' });
    // Defaults fill in: a block binds state.params, an action is primary.
    const added = apply([
      { op: 'add', path: 'blocks+', value: { id: 'd', type: 'form', props: { fields: [] } } },
      { op: 'add', path: 'actions+', value: { id: 'go', label: 'Go' } },
    ]);
    expect(added.blocks.at(-1).bind).toBe('state.params');
    expect(added.actions.at(-1).style).toBe('primary');
  });

  it('every field type of a form block, and the three action styles', () => {
    const fields = [
      { label: 'Text', key: 't', type: 'text', placeholder: 'p', required: true },
      { label: 'Number', key: 'n', type: 'number', min: 0, max: 9, step: 1 },
      { label: 'Long', key: 'l', type: 'textarea', rows: 4 },
      { label: 'Pick', key: 's', type: 'select', options: ['a', { label: 'B', value: 'b' }] },
      { label: 'Yes', key: 'c', type: 'checkbox' },
    ];
    const outcome = call(fixture(), 'form', [
      { op: 'set', path: 'blocks', value: [{ id: 'all', type: 'form', props: { fields } }] },
      { op: 'set', path: 'actions', value: ['primary', 'secondary', 'danger'].map((style) => ({ id: style, label: style, style })) },
    ]);
    expect(outcome.ok).toBe(true);
    expect(errorOf(call(fixture(), 'form', [{ op: 'add', path: 'actions+', value: { id: 'x', label: 'X', style: 'link' } }]))).toMatchObject({
      code: 'INVALID_STRUCTURE',
      message: expect.stringContaining('primary, secondary, danger'),
    });
    expect(errorOf(call(fixture(), 'form', [{ op: 'add', path: 'blocks+', value: { id: 'x', type: 'form', props: { fields: [{ label: 'D', key: 'd', type: 'date' }] } } }]))).toMatchObject({
      code: 'INVALID_STRUCTURE',
      message: expect.stringContaining('text, number, textarea, select, checkbox'),
    });
    expect(errorOf(call(fixture(), 'form', [{ op: 'set', path: 'layout', value: { type: 'grid' } }]))).toMatchObject({ code: 'INVALID_STRUCTURE', message: expect.stringContaining('single') });
  });
});

describe('the four examples of docs/rules/canvas.md', () => {
  it('update state, add a block, create an instance, delete it; list_instances after each', () => {
    let state = initialState();
    const counter = call(state, '__CREATE__', [], { new_instance_id: 'counter' });
    if (!counter.ok) throw new Error('create counter');
    state = counter.state;

    const updated = call(state, 'counter', [{ op: 'set', path: 'state.params.count', value: 42 }]);
    if (!updated.ok) throw new Error(updated.error.message);
    expect(updated.result).toMatchObject({ status: 'success', instance_id: 'counter', applied: 1, schema: { state: { params: { count: 42 } } } });
    state = updated.state;

    const added = call(state, 'demo', [
      { op: 'add', path: 'blocks+', value: { id: 'new_block', type: 'form', bind: 'state.params', props: { fields: [{ label: 'Field', key: 'field1', type: 'text' }] } } },
    ]);
    if (!added.ok) throw new Error(added.error.message);
    state = added.state;
    expect(listInstances(state).instances.find((i: any) => i.instance_id === 'demo')).toMatchObject({ blocks_count: 2, actions_count: 1 });

    const created = call(
      state,
      '__CREATE__',
      [
        { op: 'set', path: 'meta', value: { pageKey: 'my_instance', step: { current: 1, total: 1 }, status: 'idle' } },
        { op: 'set', path: 'state', value: { params: {}, runtime: {} } },
        { op: 'set', path: 'blocks', value: [] },
        { op: 'set', path: 'actions', value: [] },
      ],
      { new_instance_id: 'my_instance' },
    );
    if (!created.ok) throw new Error(created.error.message);
    expect(created.result).toMatchObject({ status: 'success', instance_id: 'my_instance', created: true, schema: { layout: { type: 'single' }, blocks: [], actions: [] } });
    state = created.state;
    expect(listInstances(state)).toMatchObject({
      status: 'success',
      total: 3,
      instances: [{ instance_id: 'demo' }, { instance_id: 'counter' }, { instance_id: 'my_instance', page_key: 'my_instance', status: 'idle', blocks_count: 0, actions_count: 0 }],
    });

    const deleted = call(state, '__DELETE__', [], { target_instance_id: 'my_instance' });
    if (!deleted.ok) throw new Error('delete');
    expect(deleted.result).toMatchObject({ status: 'success', instance_id: 'my_instance', deleted: true });
    expect(listInstances(deleted.state).instances.map((i: any) => i.instance_id)).toEqual(['demo', 'counter']);
  });

  it('get_schema answers the shape of docs/rules/canvas.md#tools, for "demo" by default', () => {
    const answer = getSchema(initialState());
    expect(answer).toMatchObject({ ok: true, result: { status: 'success', instance_id: 'demo', revision: 1 } });
    expect(Object.keys(answer.result.schema)).toEqual(['meta', 'state', 'layout', 'blocks', 'actions']);
    expect(getSchema(initialState(), 'nope')).toMatchObject({ ok: false, error: { code: 'INVALID_INSTANCE' } });
    expect(listInstances(initialState())).toEqual({
      status: 'success',
      total: 1,
      instances: [{ instance_id: 'demo', page_key: 'demo', status: 'idle', blocks_count: 1, actions_count: 1, revision: 1 }],
    });
  });
});

describe('every error code, with a message that says what is allowed', () => {
  const cases: [string, () => Outcome, RegExp][] = [
    ['INVALID_INSTANCE', () => call(fixture(), 'nope', [{ op: 'set', path: 'state.params.a', value: 1 }]), /no instance "nope"; instances: "demo", "form"/],
    ['INVALID_INSTANCE', () => call(fixture(), '__CREATE__', [], { new_instance_id: 'has space' }), /not a valid instance id/],
    ['INVALID_INSTANCE', () => call(fixture(), '__DELETE__', [], { target_instance_id: 'ghost' }), /no instance "ghost"/],
    ['INVALID_OP', () => call(fixture(), 'form', [{ op: 'move', path: 'blocks' }]), /unknown op "move"; ops: set, add, replace, remove, clear/],
    ['INVALID_OP', () => call(fixture(), 'form', [{ op: 'create', path: 'meta' }]), /instance_id "__CREATE__"/],
    ['INVALID_OP', () => call(fixture(), 'form', [{ op: 'clear', path: 'state.params.count' }]), /takes set, and "clear" takes state.params, state.runtime/],
    ['INVALID_OP', () => call(fixture(), '__DELETE__', [{ op: 'set', path: 'x', value: 1 }], { target_instance_id: 'form' }), /a delete takes no patches/],
    ['INVALID_PATH', () => call(fixture(), 'form', [{ op: 'set', path: 'blocks[0]', value: 1 }]), /an index is written blocks-0/],
    ['INVALID_PATH', () => call(fixture(), 'form', [{ op: 'remove', path: 'blocks-form_block' }]), /quote the id: blocks-"form_block"/],
    ['INVALID_PATH', () => call(fixture(), 'form', [{ op: 'set', path: '/state/params/a', value: 1 }]), /not JSON Pointers/],
    ['INVALID_PATH', () => call(fixture(), 'form', [{ op: 'set', path: 'state.params.a.b', value: 1 }]), /one segment/],
    ['INVALID_PATH', () => call(fixture(), 'form', [{ op: 'set', path: 'meta.title', value: 1 }]), /meta paths are meta.status and meta.step/],
    ['INVALID_PATH', () => call(fixture(), 'form', [{ op: 'set', path: 'widgets', value: 1 }]), /use one of: state.params.\{key\}/],
    ['PATH_NOT_FOUND', () => call(fixture(), 'form', [{ op: 'replace', path: 'blocks-7', value: block('z') }]), /indexes 0–1; to append use op "add" on blocks\+/],
    ['PATH_NOT_FOUND', () => call(fixture(), 'form', [{ op: 'remove', path: 'actions-"nope"' }]), /ids: "submit", "cancel"/],
    ['SCHEMA_MUTATION', () => call(fixture(), 'form', [{ op: 'set', path: 'meta.pageKey', value: 'x' }]), /fixed when an instance is created/],
    ['SCHEMA_MUTATION', () => call(fixture(), 'form', [{ op: 'set', path: 'state', value: { params: {}, runtime: {} } }]), /only while creating/],
    ['SCHEMA_MUTATION', () => call(fixture(), '__DELETE__', [], { target_instance_id: 'demo' }), /default instance/],
    ['MISSING_VALUE', () => call(fixture(), 'form', [{ op: 'set', path: 'state.params.a' }]), /needs a "value"/],
    ['MISSING_VALUE', () => call(fixture(), '__CREATE__', []), /"new_instance_id" is required/],
    ['MISSING_VALUE', () => call(fixture(), '__DELETE__', []), /"target_instance_id" is required/],
    ['DUPLICATE_ID', () => call(fixture(), 'form', [{ op: 'add', path: 'blocks+', value: block('form_block') }]), /two blocks have the id "form_block"/],
    ['DUPLICATE_ID', () => call(fixture(), 'form', [{ op: 'add', path: 'blocks+', value: { ...block('k'), props: { fields: [field, field] } } }]), /two fields with the key "field1"/],
    ['INSTANCE_EXISTS', () => call(fixture(), '__CREATE__', [], { new_instance_id: 'form' }), /exists already/],
    ['INVALID_STRUCTURE', () => call(fixture(), 'form', [{ op: 'add', path: 'blocks+', value: { id: 'b', type: 'table', props: { fields: [] } } }]), /supported block types: form/],
    [
      'INVALID_STRUCTURE',
      () => call(fixture(), 'form', [{ op: 'add', path: 'blocks+', value: { id: 'b', type: 'form', props: { fields: [{ label: 'S', key: 's', type: 'select' }] } } }]),
      /a select needs "options"/,
    ],
    ['INVALID_STRUCTURE', () => call(fixture(), 'form', [{ op: 'set', path: 'meta.step', value: { current: 3, total: 2 } }]), /current must not be greater than total/],
    ['INVALID_STRUCTURE', () => call(fixture(), 'form', [{ op: 'add', path: 'actions+', value: { id: 'a', label: 'A', colour: 'red' } }]), /"colour" not allowed here/],
    ['INVALID_STRUCTURE', () => call(fixture(), 'form', ['not a patch']), /a patch must be an object/],
    ['INVALID_INSTANCE', () => applyCall(fixture(), { patches: [] }) as Outcome, /"instance_id" must name an instance \(instances: "demo", "form"\)/],
    ['INVALID_INSTANCE', () => call(manyInstances(LIMITS.instances), '__CREATE__', [], { new_instance_id: 'one_more' }), /there are 100 instances, the most a canvas keeps; delete one first/],
    ['INVALID_PATH', () => call(fixture(), 'form', [{ op: 'set', path: 5, value: 1 }]), /"path" must be a string/],
    ['INVALID_PATH', () => call(fixture(), 'form', [{ op: 'replace', path: 'blocks[form_block]', value: block('form_block') }]), /the id must be in double quotes, e.g. blocks\["form_block"\]/],
    ['INVALID_PATH', () => call(fixture(), 'form', [{ op: 'remove', path: 'actions-"..x"' }]), /an id is 1–64 letters/],
    ['INVALID_PATH', () => call(fixture(), 'form', [{ op: 'set', path: 'state.custom', value: 1 }]), /state paths are state.params.\{key\}/],
    ['INVALID_PATH', () => call(fixture(), 'form', [{ op: 'set', path: 'layout.type', value: 'single' }]), /set the whole layout/],
    ['INVALID_PATH', () => call(fixture(), 'form', [{ op: 'set', path: 'blocks.form_block', value: 1 }]), /blocks paths are blocks, blocks\+, blocks-\{index\}/],
    ['INVALID_STRUCTURE', () => call(fixture(), 'form', [{ op: 'add', path: 'blocks+', value: 'form_block' }]), /blocks\+ must be an object \(a block\), got a string/],
    ['INVALID_STRUCTURE', () => call(fixture(), 'form', [{ op: 'set', path: 'actions', value: action('a') }]), /actions must be an array of actions, got an object/],
    ['INVALID_STRUCTURE', () => call(fixture(), 'form', [{ op: 'set', path: 'state.params.deep', value: nested(LIMITS.jsonDepth + 1) }]), /must be JSON .*at most 32 levels/],
    ['INVALID_STRUCTURE', () => applyCall(fixture(), { instance_id: 'form', patches: { op: 'set', path: 'state.params.a', value: 1 } }) as Outcome, /"patches" must be an array/],
    [
      'INVALID_STRUCTURE',
      () =>
        call(
          fixture(),
          'form',
          Array.from({ length: LIMITS.patchesPerCall + 1 }, (_, i) => ({ op: 'set', path: `state.params.k${i}`, value: i })),
        ),
      /at most 200 patches per call \(got 201\)/,
    ],
    ['INVALID_STRUCTURE', () => call(fixture(), 'form', [{ op: 'set', path: 'state.params.big', value: 'x'.repeat(LIMITS.schemaBytes) }]), /over the limit of 262144/],
  ];
  for (const [code, run, message] of cases) {
    it(`${code}: ${message.source}`, () => {
      const error = errorOf(run());
      expect(error.code).toBe(code);
      expect(error.message).toMatch(message);
    });
  }

  it('covers every code docs/rules/canvas.md#error-codes lists', () => {
    expect(new Set(cases.map(([code]) => code))).toEqual(new Set(ERROR_CODES));
  });

  it('a failing patch names its index, and nothing of its call is applied', () => {
    const state = fixture();
    const outcome = call(state, 'form', [
      { op: 'set', path: 'state.params.count', value: 99 },
      { op: 'remove', path: 'blocks-"second"' },
      { op: 'set', path: 'meta.status', value: 'done' },
    ]);
    expect(errorOf(outcome)).toMatchObject({
      code: 'INVALID_STRUCTURE',
      patch_index: 2,
      path: 'meta.status',
      message: expect.stringMatching(/^patches\[2\]: meta.status: must be one of idle, submitted/),
    });
    expect(getSchema(state, 'form').result.schema.state.params.count).toBe(1);
  });
});

describe('names from outside are data', () => {
  it('a state key named __proto__ or constructor is an own key, and nothing is polluted', () => {
    const outcome = call(fixture(), 'form', [
      { op: 'set', path: 'state.params.__proto__', value: { polluted: true } },
      { op: 'set', path: 'state.runtime.constructor', value: 'c' },
    ]);
    if (!outcome.ok) throw new Error(outcome.error.message);
    const params = outcome.result.schema.state.params;
    expect(Object.hasOwn(params, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
    expect(({} as any).polluted).toBeUndefined();
    // It survives a round trip through the file format.
    const reread = checkState(JSON.parse(JSON.stringify(outcome.state)));
    expect(Object.hasOwn(reread.instances[1].schema.state.params, '__proto__')).toBe(true);
    expect(reread.instances[1].schema.state.runtime.constructor).toBe('c');
  });

  it('a value that is not JSON is refused', () => {
    expect(errorOf(call(fixture(), 'form', [{ op: 'set', path: 'state.params.n', value: Number.NaN }])).code).toBe('INVALID_STRUCTURE');
  });
});

describe('revisions', () => {
  it('grow with every change, across a delete and a create of the same id; a call that changes nothing keeps them', () => {
    let state = fixture();
    const first = getSchema(state, 'form').result.revision;
    const noop = call(state, 'form', []);
    expect(noop.ok && noop.result.revision).toBe(first);
    const gone = call(state, '__DELETE__', [], { target_instance_id: 'form' });
    if (!gone.ok) throw new Error('delete');
    const again = call(gone.state, '__CREATE__', [], { new_instance_id: 'form' });
    if (!again.ok) throw new Error('create');
    state = again.state;
    expect(getSchema(state, 'form').result.revision).toBeGreaterThan(first);
  });
});
