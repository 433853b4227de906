// The compact surface for side panels: the note count, re-read when the Notes page says the notes changed.
const LABEL = { en: (n) => `${n} note${n === 1 ? '' : 's'}`, zh: (n) => `${n} 条笔记` };

export function mount({ container, host }) {
  let disposed = false;
  let label = LABEL.en;
  const line = Object.assign(document.createElement('div'), { id: 'notes-count', textContent: '…' });
  line.dataset.testid = 'notes-count';
  Object.assign(line.style, { fontFamily: 'system-ui, sans-serif', fontSize: '13px', padding: '8px' });
  container.replaceChildren(line);

  const paint = (theme) => (line.style.color = theme === 'dark' ? '#e6edf3' : '#1f2328');
  const refresh = async () => {
    try {
      const result = await host.tools.call('list_notes', {});
      const notes = result.structuredContent?.notes;
      if (!disposed) line.textContent = result.isError || !Array.isArray(notes) ? '—' : label(notes.length);
    } catch {
      if (!disposed) line.textContent = '—';
    }
  };

  const unsubscribers = [host.theme.onChange(paint), host.events.on('notes.changed', () => void refresh())];
  void host.context.get().then((context) => {
    label = LABEL[context.locale] ?? LABEL.en;
    paint(context.theme);
    return refresh();
  });

  return () => {
    disposed = true;
    for (const unsubscribe of unsubscribers) if (typeof unsubscribe === 'function') unsubscribe();
    container.replaceChildren();
  };
}
