import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyCall, checkState, initialState } from '../../../plugins/canvas/mcp/engine.mjs';
import { UiSchemaSchema } from '../../../plugins/canvas/mcp/uiSchema.mjs';

/**
 * Random call sequences against the pure engine: whatever is sent, every
 * instance stays valid, a failing call changes nothing, and revisions only
 * grow (also for an id deleted and created again).
 */

const ids = ['demo', 'a', 'b', 'c'];
const itemIds = ['profile', 'submit', 'x', 'y', 'form_block'];
const key = fc.constantFrom('name', 'age', 'count', 'x', '__proto__', 'constructor', 'a.b', '');

const field = fc
  .record({
    label: fc.constantFrom('Name', 'Age', ''),
    key: fc.constantFrom('name', 'age', 'x', 'x'),
    type: fc.constantFrom('text', 'number', 'textarea', 'select', 'checkbox', 'date'),
    options: fc.option(fc.array(fc.constantFrom('a', 'b', { label: 'C', value: 'c' }), { maxLength: 3 }), { nil: undefined }),
  })
  .map((f) => (f.options === undefined ? { label: f.label, key: f.key, type: f.type } : f));
const block = fc.record({ id: fc.constantFrom(...itemIds), type: fc.constantFrom('form', 'form', 'table'), props: fc.record({ fields: fc.array(field, { maxLength: 3 }) }) });
const action = fc.record({ id: fc.constantFrom(...itemIds), label: fc.constantFrom('Go', ''), style: fc.constantFrom('primary', 'secondary', 'danger', 'link') });
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  block,
  action,
  fc.array(block, { maxLength: 3 }),
  fc.array(action, { maxLength: 3 }),
  fc.constantFrom('idle', 'submitted', 'done', { type: 'single' }, { type: 'grid' }, { current: 1, total: 2 }, { current: 3, total: 2 }, { params: {}, runtime: {} }),
  fc.constant({ pageKey: 'p', step: { current: 1, total: 1 }, status: 'idle' }),
);
const path = fc.oneof(
  key.map((k) => `state.params.${k}`),
  key.map((k) => `state.runtime.${k}`),
  fc.constantFrom('state.params', 'state.runtime', 'state', 'blocks', 'blocks+', 'actions', 'actions+', 'layout', 'meta', 'meta.status', 'meta.step', 'meta.pageKey', 'widgets', 'blocks[0]'),
  fc.nat(3).map((i) => `blocks-${i}`),
  fc.nat(3).map((i) => `actions-${i}`),
  fc.constantFrom(...itemIds).map((id) => `blocks["${id}"]`),
  fc.constantFrom(...itemIds).map((id) => `actions["${id}"]`),
  fc.constantFrom(...itemIds).map((id) => `blocks-"${id}"`),
  fc.constantFrom(...itemIds).map((id) => `actions-"${id}"`),
);
/** Patches that are well formed (they may still fail: an id taken, an index past the end). */
const goodField = fc.constantFrom(
  { label: 'Name', key: 'name', type: 'text' },
  { label: 'Age', key: 'age', type: 'number', min: 0 },
  { label: 'Bio', key: 'bio', type: 'textarea' },
  { label: 'Pick', key: 'pick', type: 'select', options: ['a', 'b'] },
  { label: 'Yes', key: 'yes', type: 'checkbox' },
);
const goodBlock = fc.record({ id: fc.constantFrom(...itemIds), type: fc.constant('form'), props: fc.record({ fields: fc.uniqueArray(goodField, { selector: (f) => f.key, maxLength: 4 }) }) });
const goodAction = fc.record({ id: fc.constantFrom(...itemIds), label: fc.constant('Go'), style: fc.constantFrom('primary', 'secondary', 'danger') });
const goodPatch = fc.oneof(
  fc.record({ op: fc.constant('set'), path: fc.constantFrom('name', 'age', 'count', '__proto__').map((k) => `state.params.${k}`), value: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ op: fc.constant('set'), path: fc.constant('state.runtime.step'), value: fc.integer() }),
  fc.record({ op: fc.constant('clear'), path: fc.constantFrom('state.params', 'state.runtime') }),
  fc.record({ op: fc.constant('add'), path: fc.constant('blocks+'), value: goodBlock }),
  fc.record({ op: fc.constant('add'), path: fc.constant('actions+'), value: goodAction }),
  fc.record({ op: fc.constantFrom('set', 'replace'), path: fc.nat(2).map((i) => `blocks-${i}`), value: goodBlock }),
  fc.record({ op: fc.constantFrom('set', 'replace'), path: fc.constantFrom(...itemIds).map((id) => `actions["${id}"]`), value: goodAction }),
  fc.record({ op: fc.constant('remove'), path: fc.constantFrom(...itemIds).map((id) => `blocks-"${id}"`) }),
  fc.record({ op: fc.constant('set'), path: fc.constant('meta.status'), value: fc.constantFrom('idle', 'submitted') }),
  fc.record({ op: fc.constant('set'), path: fc.constant('meta.step'), value: fc.integer({ min: 1, max: 3 }).map((current) => ({ current, total: 3 })) }),
);
const patch = fc.oneof(
  { weight: 40, arbitrary: goodPatch },
  { weight: 10, arbitrary: fc.record({ op: fc.constantFrom('set', 'add', 'replace', 'remove', 'clear', 'move'), path, value }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constantFrom('set', 'add', 'replace', 'remove', 'clear'), path }) },
  { weight: 1, arbitrary: fc.anything() },
);
const call = fc.oneof(
  { weight: 8, arbitrary: fc.record({ instance_id: fc.constantFrom('demo', 'demo', 'demo', 'demo', 'a', 'b', 'nope'), patches: fc.array(patch, { maxLength: 3 }) }) },
  { weight: 3, arbitrary: fc.record({ instance_id: fc.constant('__CREATE__'), new_instance_id: fc.constantFrom('a', 'b', 'c', 'bad id'), patches: fc.array(goodPatch, { maxLength: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ instance_id: fc.constant('__DELETE__'), target_instance_id: fc.constantFrom(...ids), patches: fc.constant([]) }) },
);

describe('the patch engine under random call sequences', () => {
  it('keeps every instance valid, leaves state untouched on failure, and never lowers a revision', () => {
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 30 }), (calls) => {
        let state = initialState();
        // The highest revision each id has ever had: a recreated id must go above it.
        const highest = new Map<string, number>([['demo', 1]]);
        for (const c of calls) {
          const before = JSON.stringify(state);
          const outcome = applyCall(state, c);
          if (!outcome.ok) {
            expect(JSON.stringify(state)).toBe(before);
            continue;
          }
          const next = outcome.state;
          expect(next.seq).toBeGreaterThanOrEqual(state.seq);
          if (outcome.changed) expect(next.seq).toBe(state.seq + 1);
          for (const instance of next.instances) {
            expect(UiSchemaSchema.safeParse(instance.schema).success).toBe(true);
            const previous = state.instances.find((i: { instance_id: string }) => i.instance_id === instance.instance_id);
            if (previous) expect(instance.revision).toBeGreaterThanOrEqual(previous.revision);
            else expect(instance.revision).toBeGreaterThan(highest.get(instance.instance_id) ?? 0);
            highest.set(instance.instance_id, Math.max(highest.get(instance.instance_id) ?? 0, instance.revision));
          }
          // What the store writes reads back as valid.
          checkState(JSON.parse(JSON.stringify(next)));
          expect(JSON.stringify(state)).toBe(before);
          state = next;
        }
      }),
      { numRuns: 400 },
    );
  });
});
