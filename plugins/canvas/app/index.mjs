// The Canvas page (docs/rules/canvas.md): lists the UI instances agents built, renders
// the selected one and follows every change live. What the user types is
// shown at once (the optimistic update of docs/rules/canvas.md#one-way-to-write) and kept as unsent input; an
// action click sends the form's values through patch_ui_state, the one write
// path, so the gateway's grants and audit apply and the history records it.
// Plain DOM styled with antd's tokens (a page frame loads no framework).
// Beside a conversation (the chat's side panel, docs/using/side-panel.md) the
// same page shows one instance, follows the instance the shell focuses, and
// tells the conversation when the user submits.
import { canvasClient, CanvasCallError, followChanges, newestReads } from './client.mjs';
import { submittedMessage } from './conversationMessage.mjs';
import { createDrafts, markInput, missingRequired, patchesFor, repaintKeepingFocus } from './form.mjs';
import { installStyles } from './styles.mjs';
import { textFor } from './text.mjs';
import { card, el, historyList, instanceList, instanceView } from './view.mjs';

export function mount({ container, host }) {
  return mountCanvas({ container, host }, 'full');
}

/** `layout`: `full` (the page: instances, the one selected, its history) or `panel` (one instance, with a switcher). */
export function mountCanvas({ container, host }, layout) {
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
    fieldErrors: new Map(),
    error: undefined,
    sending: undefined,
    loadError: undefined,
  };
  /** The conversation this page sits beside, if any: told of each submit. */
  let besideChat = false;
  const root = el('div', { class: `cv cv-${layout}`, id: 'canvas-app', 'data-testid': 'canvas-app' });
  container.replaceChildren(root);

  const drafts = createDrafts(() => model.current);

  /** Re-renders everything, keeping the focused field and its caret (a live update must not take the cursor from the user). */
  const render = () => {
    if (disposed) return;
    repaintKeepingFocus(root, () => {
      const live = el('span', { class: 'cv-live cv-muted cv-small' }, el('span', { class: 'cv-dot' }), t.live);
      if (layout === 'panel') return [instanceSwitch(live), mainView()];
      const list = card(t.instances, live, instanceList(t, model.instances, model.selected, select));
      const main = mainView();
      const history = card(t.history, model.current ? el('span', { class: 'cv-muted cv-small', text: model.current.instanceId }) : undefined, historyList(t, model.history), {
        class: 'cv-card cv-history',
      });
      return [list, main, history];
    });
  };

  /** The panel's instance picker: the instances by id, the focused one selected. */
  function instanceSwitch(live) {
    const picker = el(
      'select',
      { class: 'cv-input cv-switch', 'aria-label': t.instances, 'data-testid': 'canvas-instance-switch', onchange: (event) => select(event.target.value) },
      model.instances.map((i) => el('option', { value: i.instance_id, text: i.instance_id, selected: i.instance_id === model.selected })),
    );
    return el('div', { class: 'cv-row cv-panel-head' }, live, picker);
  }

  function mainView() {
    return model.current
      ? instanceView({
          t,
          instanceId: model.current.instanceId,
          revision: model.current.revision,
          schema: model.current.schema,
          values: drafts.valueOf,
          isDirty: drafts.isDirty,
          fieldErrors: model.fieldErrors,
          error: model.error,
          sending: model.sending,
          unsaved: drafts.unsavedCount(),
          onInput,
          onAction,
        })
      : card(t.title, undefined, el('div', { class: 'cv-card-body' }, el('div', { class: model.loadError ? 'cv-alert' : 'cv-empty', text: model.loadError ?? t.loading })));
  }

  /** The optimistic update: the input is the user's at once, and stays until it is sent or the instance changes under it. */
  function onInput(bind, key, value, wrapper) {
    drafts.set(bind, key, value);
    model.fieldErrors.delete(`${bind}.${key}`);
    const unsaved = drafts.unsavedCount();
    markInput(root, wrapper, drafts.isDirty(bind, key), unsaved > 0 ? t.unsaved(unsaved) : '');
  }

  async function onAction(action) {
    if (!model.current || model.sending) return;
    model.fieldErrors.clear();
    for (const id of missingRequired(model.current.schema, drafts.valueOf, action)) model.fieldErrors.set(id, t.required);
    if (model.fieldErrors.size > 0) return render();
    const instanceId = model.current.instanceId;
    model.sending = action.id;
    model.error = undefined;
    render();
    try {
      const result = await client.patch({ instance_id: instanceId, patches: patchesFor(model.current.schema, drafts.valueOf, action) });
      const answer = result.structuredContent;
      if (result.isError) {
        model.error = answer?.error ?? { code: 'FAILED', message: result.content?.find((c) => c.type === 'text')?.text ?? 'failed' };
      } else {
        drafts.discard(instanceId);
        if (model.current?.instanceId === instanceId && answer.revision >= model.current.revision) model.current = { instanceId, revision: answer.revision, schema: answer.schema };
        // Beside a conversation: the agent hears what the user submitted, with the instance's state as it now is.
        if (besideChat) await host.conversation.post(submittedMessage(instanceId, action, answer)).catch((error) => (model.error = { code: 'NOT_TOLD', message: t.notTold(error.message) }));
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

  // The submit's own re-read runs beside the live refreshes: the newest read wins, never the last to answer.
  const schemaReads = newestReads();

  /** Reads an instance and shows it at once when it changed (a live update paints after this one read). */
  async function showSchema(instanceId) {
    const ticket = schemaReads.begin();
    const answer = await client.schema(instanceId);
    if (disposed || model.selected !== instanceId || !schemaReads.isNewest(ticket)) return;
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
  const stops = [
    host.events.on('canvas.select', (payload) => typeof payload?.instance_id === 'string' && select(payload.instance_id)),
    // The shell's focus (the side panel follows the instance its conversation's agent changed).
    host.events.on('host.focus', (payload) => typeof payload?.focus === 'string' && select(payload.focus)),
  ];
  // The full page switches to an instance an agent just created; the panel follows its own conversation's focus instead.
  if (layout === 'full') stops.push(host.events.on('tool.called', (event) => event?.created_by_agent === true && typeof event.instance_id === 'string' && select(event.instance_id)));
  void host.context.get().then(
    async (context) => {
      if (disposed) return;
      t = textFor(context.locale);
      besideChat = context.besideChat === true;
      if (typeof context.focus === 'string') model.selected = context.focus;
      // The first read and every change after it (client.mjs).
      stops.push(followChanges(host, refresh));
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
