// What a canvas surface keeps beside the instance it shows: the user's
// unsent input (the optimistic update of docs/rules/canvas.md#one-way-to-write),
// which of it differs from the stored value, and the patches an action
// click sends. Shared by the ChatOS page (index.mjs) and the MCP App view
// (mcpView.mjs), so both send the same patch for the same click.

const own = (bag, key) => (bag && Object.hasOwn(bag, key) ? bag[key] : undefined);
const bagOf = (schema, bind) => (bind === 'state.runtime' ? schema.state.runtime : schema.state.params);
const blank = (value) => value === undefined || value === null || value === '';

/**
 * Unsent input per instance ("state.params.name" → value), read against
 * `current()`: the `{ instanceId, revision, schema }` on show, or undefined.
 */
export function createDrafts(current) {
  const byInstance = new Map();
  const draftsOf = (instanceId) => {
    let drafts = byInstance.get(instanceId);
    if (!drafts) byInstance.set(instanceId, (drafts = new Map()));
    return drafts;
  };
  const stored = (bind, key) => own(bagOf(current().schema, bind), key);
  const valueOf = (bind, key) => {
    const drafts = draftsOf(current().instanceId);
    const id = `${bind}.${key}`;
    return drafts.has(id) ? drafts.get(id) : stored(bind, key);
  };
  const isDirty = (bind, key) => {
    const drafts = draftsOf(current().instanceId);
    const id = `${bind}.${key}`;
    return drafts.has(id) && JSON.stringify(drafts.get(id)) !== JSON.stringify(stored(bind, key) ?? null);
  };
  return {
    valueOf,
    isDirty,
    set: (bind, key, value) => draftsOf(current().instanceId).set(`${bind}.${key}`, value),
    discard: (instanceId) => byInstance.delete(instanceId),
    unsavedCount: () =>
      current()
        ? current()
            .schema.blocks.flatMap((b) => b.props.fields.map((f) => isDirty(b.bind, f.key)))
            .filter(Boolean).length
        : 0,
  };
}

/** The required fields left blank ("state.params.email"): submitting asks for them; other actions (cancel, reset) do not. */
export function missingRequired(schema, valueOf, action) {
  if (action.status !== 'submitted') return [];
  return schema.blocks.flatMap((block) => block.props.fields.filter((field) => field.required && blank(valueOf(block.bind, field.key))).map((field) => `${block.bind}.${field.key}`));
}

/** The form's values as patches: every field's value (the user's input over the stored one), the action, and the status it sets. */
export function patchesFor(schema, valueOf, action) {
  const patches = [];
  for (const block of schema.blocks) {
    for (const field of block.props.fields) {
      const value = valueOf(block.bind, field.key);
      patches.push({ op: 'set', path: `${block.bind}.${field.key}`, value: value === undefined ? (field.type === 'checkbox' ? false : null) : value });
    }
  }
  patches.push({ op: 'set', path: 'state.runtime.last_action', value: action.id });
  if (action.status) patches.push({ op: 'set', path: 'meta.status', value: action.status });
  return patches;
}

/** Shows what one keystroke changed without a render: the dirty mark, the field's error gone, the unsent count. */
export function markInput(root, wrapper, dirty, unsavedLine) {
  wrapper.classList.toggle('cv-dirty', dirty);
  wrapper.querySelector('.cv-field-error')?.remove();
  wrapper.querySelector('.cv-input-error')?.classList.remove('cv-input-error');
  const line = root.querySelector('[data-testid="canvas-unsaved"]');
  if (line) line.textContent = unsavedLine;
}

/** Replaces `root`'s content with `paint()`'s, keeping the focused field and its caret (a live update must not take the cursor from the user). */
export function repaintKeepingFocus(root, paint) {
  const focused = document.activeElement?.dataset?.field;
  const caret = focused && typeof document.activeElement.selectionStart === 'number' ? [document.activeElement.selectionStart, document.activeElement.selectionEnd] : undefined;
  root.replaceChildren(...paint());
  if (focused) {
    const again = root.querySelector(`[data-field="${CSS.escape(focused)}"]`);
    again?.focus();
    if (caret && typeof again?.setSelectionRange === 'function') again.setSelectionRange(caret[0], caret[1]);
  }
}
