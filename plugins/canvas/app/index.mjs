// The Canvas page (docs/rules/canvas.md): lists the UI instances agents built, renders
// the selected one and follows every change live. What the user types is
// shown at once (the optimistic update of docs/rules/canvas.md#one-way-to-write) and kept as unsent input; an
// action click sends the form's values through patch_ui_state, the one write
// path, so the gateway's grants and audit apply and the history records it.
// Plain DOM styled with antd's tokens (a page frame loads no framework).
import { canvasClient, CanvasCallError, followChanges } from './client.mjs';
import { installStyles } from './styles.mjs';
import { textFor } from './text.mjs';
import { card, el, historyList, instanceList, instanceView } from './view.mjs';

const own = (bag, key) => (bag && Object.hasOwn(bag, key) ? bag[key] : undefined);
const bagOf = (schema, bind) => (bind === 'state.runtime' ? schema.state.runtime : schema.state.params);
const blank = (value) => value === undefined || value === null || value === '';

export function mount({ container, host }) {
  installStyles();
  const client = canvasClient(host);
  let t = textFor('en');
  let disposed = false;
  const model = {
    instances: [],
    selected: undefined,
    /** `{ instanceId, revision, schema }` of the selected instance. */
    current: undefined,
    history: [],
    /** Unsent input per instance: "state.params.name" → value. */
    drafts: new Map(),
    fieldErrors: new Map(),
    error: undefined,
    sending: undefined,
    loadError: undefined,
  };
  const root = el('div', { class: 'cv cv-full', id: 'canvas-app', 'data-testid': 'canvas-app' });
  container.replaceChildren(root);

  const draftsOf = (instanceId) => {
    let drafts = model.drafts.get(instanceId);
    if (!drafts) model.drafts.set(instanceId, (drafts = new Map()));
    return drafts;
  };
  const stored = (bind, key) => own(bagOf(model.current.schema, bind), key);
  const valueOf = (bind, key) => {
    const drafts = draftsOf(model.current.instanceId);
    const id = `${bind}.${key}`;
    return drafts.has(id) ? drafts.get(id) : stored(bind, key);
  };
  const isDirty = (bind, key) => {
    const drafts = draftsOf(model.current.instanceId);
    const id = `${bind}.${key}`;
    return drafts.has(id) && JSON.stringify(drafts.get(id)) !== JSON.stringify(stored(bind, key) ?? null);
  };
  const unsavedCount = () => (model.current ? model.current.schema.blocks.flatMap((b) => b.props.fields.map((f) => isDirty(b.bind, f.key))).filter(Boolean).length : 0);

  /** Re-renders everything, keeping the focused field and its caret (a live update must not take the cursor from the user). */
  const render = () => {
    if (disposed) return;
    const focused = document.activeElement?.dataset?.field;
    const caret = focused && typeof document.activeElement.selectionStart === 'number' ? [document.activeElement.selectionStart, document.activeElement.selectionEnd] : undefined;
    const live = el('span', { class: 'cv-live cv-muted cv-small' }, el('span', { class: 'cv-dot' }), t.live);
    const list = card(t.instances, live, instanceList(t, model.instances, model.selected, select));
    const main = model.current
      ? instanceView({
          t,
          instanceId: model.current.instanceId,
          revision: model.current.revision,
          schema: model.current.schema,
          values: valueOf,
          isDirty,
          fieldErrors: model.fieldErrors,
          error: model.error,
          sending: model.sending,
          unsaved: unsavedCount(),
          onInput,
          onAction,
        })
      : card(t.title, undefined, el('div', { class: 'cv-card-body' }, el('div', { class: model.loadError ? 'cv-alert' : 'cv-empty', text: model.loadError ?? t.loading })));
    const history = card(t.history, model.current ? el('span', { class: 'cv-muted cv-small', text: model.current.instanceId }) : undefined, historyList(t, model.history), { class: 'cv-card cv-history' });
    root.replaceChildren(list, main, history);
    if (focused) {
      const again = root.querySelector(`[data-field="${CSS.escape(focused)}"]`);
      again?.focus();
      if (caret && typeof again?.setSelectionRange === 'function') again.setSelectionRange(caret[0], caret[1]);
    }
  };

  /** The optimistic update: the input is the user's at once, and stays until it is sent or the instance changes under it. */
  function onInput(bind, key, value, wrapper) {
    const id = `${bind}.${key}`;
    draftsOf(model.current.instanceId).set(id, value);
    model.fieldErrors.delete(id);
    wrapper.classList.toggle('cv-dirty', isDirty(bind, key));
    wrapper.querySelector('.cv-field-error')?.remove();
    wrapper.querySelector('.cv-input-error')?.classList.remove('cv-input-error');
    const line = root.querySelector('[data-testid="canvas-unsaved"]');
    const unsaved = unsavedCount();
    if (line) line.textContent = unsaved > 0 ? t.unsaved(unsaved) : '';
  }

  /** The form's values as patches: every field's value (the user's input over the stored one), the action, and the status it sets. */
  function patchesFor(action) {
    const patches = [];
    for (const block of model.current.schema.blocks) {
      for (const field of block.props.fields) {
        const value = valueOf(block.bind, field.key);
        patches.push({ op: 'set', path: `${block.bind}.${field.key}`, value: value === undefined ? (field.type === 'checkbox' ? false : null) : value });
      }
    }
    patches.push({ op: 'set', path: 'state.runtime.last_action', value: action.id });
    if (action.status) patches.push({ op: 'set', path: 'meta.status', value: action.status });
    return patches;
  }

  async function onAction(action) {
    if (!model.current || model.sending) return;
    model.fieldErrors.clear();
    // Submitting asks for the required fields; other actions (cancel, reset) do not.
    if (action.status === 'submitted') {
      for (const block of model.current.schema.blocks) {
        for (const field of block.props.fields) if (field.required && blank(valueOf(block.bind, field.key))) model.fieldErrors.set(`${block.bind}.${field.key}`, t.required);
      }
      if (model.fieldErrors.size > 0) return render();
    }
    const instanceId = model.current.instanceId;
    model.sending = action.id;
    model.error = undefined;
    render();
    try {
      const result = await client.patch({ instance_id: instanceId, patches: patchesFor(action) });
      const answer = result.structuredContent;
      if (result.isError) {
        model.error = answer?.error ?? { code: 'FAILED', message: result.content?.find((c) => c.type === 'text')?.text ?? 'failed' };
      } else {
        model.drafts.delete(instanceId);
        if (model.current?.instanceId === instanceId && answer.revision >= model.current.revision) model.current = { instanceId, revision: answer.revision, schema: answer.schema };
      }
    } catch (error) {
      // The host refused (a declined confirmation, a revoked grant): said as it is, the input kept.
      model.error = { code: error instanceof CanvasCallError ? error.code : 'REFUSED', message: error.message };
    } finally {
      model.sending = undefined;
    }
    render();
    await refresh();
  }

  /** Reads an instance and shows it at once when it changed (a live update paints after this one read). */
  async function showSchema(instanceId) {
    const answer = await client.schema(instanceId);
    if (disposed || model.selected !== instanceId) return;
    const previous = model.current?.instanceId === instanceId ? model.current.revision : undefined;
    if (previous !== undefined && answer.revision === previous) return;
    model.current = { instanceId, revision: answer.revision, schema: answer.schema };
    // An error shown for an older revision is stale once someone changed the instance.
    if (previous !== undefined && !model.sending) model.error = undefined;
    render();
  }

  async function loadHistory(instanceId) {
    const entries = await client.history(instanceId).catch(() => undefined);
    if (entries && !disposed && model.selected === instanceId) model.history = entries;
  }

  async function loadSelected(instanceId) {
    await showSchema(instanceId);
    await loadHistory(instanceId);
  }

  /** The selected instance first, then the list and the history: what changed shows before the rest is read. */
  async function refresh() {
    try {
      const wanted = model.selected;
      if (wanted) await showSchema(wanted).catch(() => undefined);
      const [list] = await Promise.all([client.list(), wanted ? loadHistory(wanted) : undefined]);
      if (disposed) return;
      model.instances = list.instances;
      model.loadError = undefined;
      const ids = list.instances.map((i) => i.instance_id);
      if (!ids.includes(model.selected)) {
        model.selected = ids.includes('demo') ? 'demo' : ids[0];
        model.current = undefined;
        model.history = [];
        if (model.selected) await loadSelected(model.selected);
      }
    } catch (error) {
      model.loadError = t.failed(error.message);
    }
    render();
  }

  function select(instanceId) {
    if (instanceId === model.selected) return;
    model.selected = instanceId;
    model.error = undefined;
    model.fieldErrors.clear();
    void loadSelected(instanceId).then(render, (error) => {
      model.loadError = t.failed(error.message);
      render();
    });
    render();
  }

  render();
  const stops = [host.events.on('canvas.select', (payload) => typeof payload?.instance_id === 'string' && select(payload.instance_id))];
  void host.context.get().then(
    async (context) => {
      if (disposed) return;
      t = textFor(context.locale);
      await refresh();
      if (!disposed) stops.push(followChanges(host, refresh));
    },
    (error) => {
      model.loadError = t.failed(error.message);
      render();
    },
  );

  return () => {
    disposed = true;
    for (const stop of stops) stop?.();
    container.replaceChildren();
  };
}
