// The Canvas's compact surface for side panels. Beside the full page: the
// instances with their status and revision, and who changed the canvas
// last; a click shows that instance in the full page (the two frames talk
// through host.events). Beside a conversation (the shell gives a focus):
// the focused instance itself, live, with its form (index.mjs, panel layout).
import { canvasClient, followChanges } from './client.mjs';
import { mountCanvas } from './index.mjs';
import { installStyles } from './styles.mjs';
import { textFor, whoOf } from './text.mjs';
import { el, instanceList } from './view.mjs';

export function mount({ container, host }) {
  const context = host.context.get();
  return typeof context.focus === 'string' ? mountCanvas({ container, host }, 'panel') : mountList({ container, host });
}

function mountList({ container, host }) {
  installStyles();
  const client = canvasClient(host);
  let t = textFor('en');
  let disposed = false;
  let instances;
  let last;
  let failure;
  const root = el('div', { class: 'cv cv-compact', 'data-testid': 'canvas-compact' });
  container.replaceChildren(root);

  const render = () => {
    if (disposed) return;
    const ago = last ? t.ago(Math.max(0, Math.round((Date.now() - Date.parse(last.at)) / 1000))) : undefined;
    root.replaceChildren(
      failure
        ? el('div', { class: 'cv-alert', text: failure })
        : instances
          ? instanceList(t, instances, undefined, (id) => void host.events.emit('canvas.select', { instance_id: id }))
          : el('div', { class: 'cv-empty', text: t.loading }),
      last
        ? el('div', { class: 'cv-muted cv-small', style: 'padding: 8px 8px 0', 'data-testid': 'canvas-last-change', text: t.lastChange(`${whoOf(t, last.caller)} → ${last.instance_id}`, ago) })
        : undefined,
    );
  };

  const refresh = async () => {
    try {
      const [list, history] = await Promise.all([client.list(), client.history(undefined, 1).catch(() => [])]);
      instances = list.instances;
      last = history[0];
      failure = undefined;
    } catch (error) {
      failure = t.failed(error.message);
    }
    render();
  };

  const stops = [];
  render();
  void host.context.get().then(async (context) => {
    t = textFor(context.locale);
    if (!disposed) stops.push(followChanges(host, refresh));
  });
  return () => {
    disposed = true;
    for (const stop of stops) stop();
    container.replaceChildren();
  };
}
