// The canvas as an MCP App view (docs/using/canvas.md#in-other-mcp-hosts): the
// document a host (Claude Desktop, VS Code, goose, ChatOS) renders in a
// sandboxed iframe for a canvas tool's result. It speaks the app side of
// SEP-1865 through the ext-apps App class: the ui/initialize handshake, the
// tool input and result, tools/call through the host for the form's actions
// and to follow the instance, ui/message to tell the conversation what the
// user pressed, its size, and teardown. The server inlines this module and
// what it imports into one HTML document (mcp/viewResource.mjs).
import { App, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-with-deps';
import { LIMITS } from '../mcp/limits.mjs';
import { createDrafts, markInput, missingRequired, patchesFor, repaintKeepingFocus } from './form.mjs';
import { installStyles } from './styles.mjs';
import { textFor } from './text.mjs';
import { card, el, instanceList, instanceView } from './view.mjs';

/** How often a view on screen re-reads its instance: a host has no way to push a change made by another call. */
const FOLLOW_MS = 2_000;
/** A result past this is no canvas result (an instance holds at most LIMITS.schemaBytes): a host passes results on, so they are data. */
const RESULT_BYTES = LIMITS.schemaBytes + 16 * 1024;
/** What a ui/message quotes of the values: the conversation gets the gist, get_schema has the rest. */
const MESSAGE_VALUES = 4_000;

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const languageOf = (locale) => (/^zh\b/i.test(typeof locale === 'string' ? locale : '') ? 'zh' : 'en');

/** An instance schema shaped as the renderer reads it (the server checked it fully; this guards the renderer against anything else). */
function isSchema(schema) {
  return (
    isObject(schema) &&
    isObject(schema.meta) &&
    typeof schema.meta.pageKey === 'string' &&
    isObject(schema.meta.step) &&
    isObject(schema.state) &&
    isObject(schema.state.params) &&
    isObject(schema.state.runtime) &&
    Array.isArray(schema.blocks) &&
    schema.blocks.every((block) => isObject(block) && isObject(block.props) && Array.isArray(block.props.fields) && block.props.fields.every(isObject)) &&
    Array.isArray(schema.actions) &&
    schema.actions.every(isObject)
  );
}

/**
 * What a canvas tool's result shows: an instance (patch_ui_state, get_schema),
 * the list (list_instances), a deletion, a refusal, or nothing to show.
 */
export function readResult(result) {
  let bytes;
  try {
    bytes = JSON.stringify(result ?? null).length;
  } catch {
    return { kind: 'malformed' };
  }
  if (bytes > RESULT_BYTES) return { kind: 'tooLarge', bytes };
  const answer = result?.structuredContent;
  if (!isObject(answer)) return { kind: 'none' };
  const instanceId = typeof answer.instance_id === 'string' ? answer.instance_id : undefined;
  if (result.isError || answer.status === 'error') {
    const error = isObject(answer.error) ? answer.error : {};
    const text = result.content?.find?.((c) => c?.type === 'text')?.text;
    return { kind: 'error', instanceId, error: { code: String(error.code ?? 'FAILED'), message: String(error.message ?? text ?? 'the call failed') } };
  }
  if (Array.isArray(answer.instances)) return answer.instances.every((i) => isObject(i) && typeof i.instance_id === 'string') ? { kind: 'list', instances: answer.instances } : { kind: 'malformed' };
  if (answer.deleted === true && instanceId) return { kind: 'deleted', instanceId };
  if (instanceId && Number.isInteger(answer.revision) && answer.schema !== undefined) {
    return isSchema(answer.schema) ? { kind: 'instance', instanceId, revision: answer.revision, schema: answer.schema } : { kind: 'malformed' };
  }
  return { kind: 'none' };
}

/** The instance a call names in its arguments (what to wait for before its result arrives). */
function instanceNamed(args) {
  if (!isObject(args)) return undefined;
  const id = args.instance_id === '__CREATE__' ? args.new_instance_id : args.instance_id === '__DELETE__' ? args.target_instance_id : args.instance_id;
  return typeof id === 'string' ? id.slice(0, 64) : undefined;
}

function start() {
  installStyles();
  const root = el('div', { class: 'cv cv-view', 'data-testid': 'canvas-mcp-view' });
  document.body.replaceChildren(root);
  let t = textFor('en');
  let disposed = false;
  let onScreen = true;
  /** What the view shows: `{ kind: 'waiting', instanceId? } | { kind: 'list', instances } | { kind: 'notice', text } | { kind: 'instance' }`. */
  let showing = { kind: 'waiting' };
  /** `{ instanceId, revision, schema }` of the instance on show. */
  let current;
  let fieldErrors = new Map();
  let error;
  let sending;
  let notLive;
  const drafts = createDrafts(() => current);
  const app = new App({ name: 'chatos-canvas-view', version: '0.1.0' }, { availableDisplayModes: ['inline'] });
  const canCall = () => app.getHostCapabilities()?.serverTools !== undefined;

  const render = () => {
    if (disposed) return;
    repaintKeepingFocus(root, () => {
      if (showing.kind === 'instance') {
        const view = instanceView({
          t,
          instanceId: current.instanceId,
          revision: current.revision,
          schema: current.schema,
          values: drafts.valueOf,
          isDirty: drafts.isDirty,
          fieldErrors,
          error,
          sending,
          unsaved: drafts.unsavedCount(),
          onInput,
          onAction,
        });
        const live = canCall() && !notLive ? el('span', { class: 'cv-live cv-muted cv-small', 'data-testid': 'canvas-live' }, el('span', { class: 'cv-dot' }), t.live) : undefined;
        const why = notLive ?? (canCall() ? undefined : t.view.noTools);
        return [view, el('div', { class: 'cv-foot cv-muted cv-small' }, live, why ? el('span', { text: why, 'data-testid': 'canvas-not-live' }) : undefined)];
      }
      if (showing.kind === 'list')
        return [
          card(
            t.instances,
            undefined,
            instanceList(t, showing.instances, undefined, (id) => void open(id)),
          ),
        ];
      const text = showing.kind === 'notice' ? showing.text : t.view.waiting(showing.instanceId);
      return [
        card(t.title, undefined, el('div', { class: 'cv-card-body' }, el('div', { class: showing.kind === 'notice' ? 'cv-alert' : 'cv-empty', role: 'status', text, 'data-testid': 'canvas-notice' }))),
      ];
    });
  };

  const notice = (text) => {
    showing = { kind: 'notice', text };
    render();
  };

  /** Shows an instance; a newer revision of the one on show keeps the user's unsent input. */
  function showInstance(next) {
    if (current?.instanceId === next.instanceId && showing.kind === 'instance' && next.revision < current.revision) return;
    if (current?.instanceId !== next.instanceId) fieldErrors = new Map();
    // An error shown for an older revision is stale once someone changed the instance.
    if (current?.instanceId === next.instanceId && next.revision !== current.revision && !sending) error = undefined;
    current = { instanceId: next.instanceId, revision: next.revision, schema: next.schema };
    showing = { kind: 'instance' };
    render();
  }

  function showResult(result) {
    const read = readResult(result);
    switch (read.kind) {
      case 'instance':
        return showInstance(read);
      case 'list':
        showing = { kind: 'list', instances: read.instances };
        return render();
      case 'deleted':
        if (current?.instanceId === read.instanceId) current = undefined;
        return notice(t.view.deleted(read.instanceId));
      case 'error':
        if (current && showing.kind === 'instance' && (read.instanceId === undefined || read.instanceId === current.instanceId)) {
          error = read.error;
          return render();
        }
        return notice(`${read.error.code}: ${read.error.message}`);
      case 'tooLarge':
        return notice(t.view.tooLarge(read.bytes, LIMITS.schemaBytes));
      case 'malformed':
        return notice(t.view.malformed);
      case 'none':
        return notice(t.view.nothing);
    }
  }

  async function open(instanceId) {
    try {
      showResult(await app.callServerTool({ name: 'get_schema', arguments: { instance_id: instanceId } }));
    } catch (failure) {
      notice(`${t.view.notLive(failure.message)}`);
    }
  }

  function onInput(bind, key, value, wrapper) {
    drafts.set(bind, key, value);
    fieldErrors.delete(`${bind}.${key}`);
    const unsaved = drafts.unsavedCount();
    markInput(root, wrapper, drafts.isDirty(bind, key), unsaved > 0 ? t.unsaved(unsaved) : '');
  }

  /** An action click: the form's values through patch_ui_state (via the host, so its confirmations apply), then a word to the conversation. */
  async function onAction(action) {
    if (!current || sending) return;
    fieldErrors = new Map(missingRequired(current.schema, drafts.valueOf, action).map((id) => [id, t.required]));
    if (fieldErrors.size > 0) return render();
    const { instanceId, schema } = current;
    sending = action.id;
    error = undefined;
    render();
    let applied;
    try {
      const result = await app.callServerTool({ name: 'patch_ui_state', arguments: { instance_id: instanceId, patches: patchesFor(schema, drafts.valueOf, action) } });
      const read = readResult(result);
      if (read.kind === 'instance') {
        drafts.discard(instanceId);
        applied = read;
      } else {
        error = read.kind === 'error' ? read.error : { code: 'FAILED', message: t.view.malformed };
      }
    } catch (failure) {
      // The host refused (a declined confirmation, no tool calls from views): said as it is, the input kept.
      error = { code: 'REFUSED', message: failure.message };
    } finally {
      sending = undefined;
    }
    if (!applied) return render();
    showInstance(applied);
    if (app.getHostCapabilities()?.message === undefined) return;
    const values = JSON.stringify(applied.schema.state.params);
    const quoted = values.length > MESSAGE_VALUES ? `${values.slice(0, MESSAGE_VALUES)}…` : values;
    await app.sendMessage({ role: 'user', content: [{ type: 'text', text: t.view.message(instanceId, action.label, applied.revision, quoted) }] }).catch(() => undefined);
  }

  /** Re-reads the instance on show while the view is on screen, so a change from another call (the agent's next patch) shows. */
  async function follow() {
    while (!disposed && !notLive) {
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_MS));
      if (disposed || !current || showing.kind !== 'instance' || sending || !onScreen || document.visibilityState === 'hidden' || !canCall()) continue;
      try {
        const read = readResult(await app.callServerTool({ name: 'get_schema', arguments: { instance_id: current.instanceId } }));
        if (read.kind === 'instance' && read.revision !== current.revision) showInstance(read);
        else if (read.kind === 'error' && read.error.code === 'INVALID_INSTANCE') notice(t.view.deleted(current.instanceId));
      } catch (failure) {
        notLive = t.view.notLive(failure.message);
        render();
      }
    }
  }

  const applyContext = (context) => {
    if (!isObject(context)) return;
    if (context.theme === 'dark' || context.theme === 'light') document.documentElement.dataset.theme = context.theme;
    if (typeof context.locale === 'string') t = textFor(languageOf(context.locale));
  };

  const watcher = typeof IntersectionObserver === 'function' ? new IntersectionObserver((entries) => (onScreen = entries.some((entry) => entry.isIntersecting))) : undefined;
  watcher?.observe(root);
  // Set before connecting: the host sends the tool's input and result right after the handshake.
  app.ontoolinput = ({ arguments: args }) => {
    if (showing.kind !== 'waiting') return;
    showing = { kind: 'waiting', instanceId: instanceNamed(args) };
    render();
  };
  app.ontoolresult = showResult;
  app.ontoolcancelled = () => showing.kind === 'waiting' && notice(t.view.nothing);
  app.onhostcontextchanged = (context) => {
    applyContext(context);
    render();
  };
  app.onteardown = async () => {
    disposed = true;
    watcher?.disconnect();
    return {};
  };
  render();
  app.connect(new PostMessageTransport(window.parent, window.parent)).then(
    () => {
      applyContext(app.getHostContext());
      render();
      void follow();
    },
    (failure) => notice(t.failed(failure.message)),
  );
}

start();
