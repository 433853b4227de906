// The compact surface for side panels: the count and the newest notes (issue 45: it showed only a count), re-read
// when the Notes page says the notes changed. Styled with the window's tokens, so it follows light and dark itself.
const TEXT = {
  en: { count: (n) => `${n} note${n === 1 ? '' : 's'}`, empty: 'No notes yet.' },
  zh: { count: (n) => `${n} 条笔记`, empty: '还没有笔记。' },
};
/** How many of the newest notes the panel lists; the page has them all. */
const SHOWN = 8;

const el = (tag, props = {}, style = {}) => {
  const node = Object.assign(document.createElement(tag), props);
  Object.assign(node.style, style);
  return node;
};

export function mount({ container, host }) {
  let disposed = false;
  let t = TEXT.en;
  const root = el('div', {}, { fontFamily: 'var(--chatos-font-family)', fontSize: '13px', padding: '8px', color: 'var(--chatos-color-text)' });
  const line = el('div', { id: 'notes-count', textContent: '…' }, { color: 'var(--chatos-color-text-secondary)', marginBottom: '6px' });
  line.dataset.testid = 'notes-count';
  const list = el('ul', {}, { listStyle: 'none', margin: '0', padding: '0' });
  list.dataset.testid = 'notes-compact-list';
  root.append(line, list);
  container.replaceChildren(root);

  const item = (note) => {
    const row = el(
      'li',
      { textContent: note.title, title: note.text ? `${note.title}: ${note.text}` : note.title },
      {
        padding: '4px 8px',
        marginBottom: '4px',
        borderRadius: 'var(--chatos-radius-sm)',
        background: 'var(--chatos-color-fill)',
        overflow: 'hidden',
        textOverflow: 'ellipsis',
        whiteSpace: 'nowrap',
      },
    );
    row.dataset.testid = 'notes-compact-item';
    return row;
  };
  const refresh = async () => {
    try {
      const result = await host.tools.call('list_notes', {});
      const notes = result.structuredContent?.notes;
      if (disposed) return;
      if (result.isError || !Array.isArray(notes)) return void (line.textContent = '—');
      line.textContent = t.count(notes.length);
      // The newest first: the list tool answers in the order the notes were added.
      const newest = notes.slice(-SHOWN).reverse();
      list.replaceChildren(...(newest.length ? newest.map(item) : [el('li', { textContent: t.empty }, { color: 'var(--chatos-color-text-secondary)' })]));
    } catch {
      if (!disposed) line.textContent = '—';
    }
  };

  const unsubscribe = host.events.on('notes.changed', () => void refresh());
  void host.context.get().then((context) => {
    t = TEXT[context.locale] ?? TEXT.en;
    return refresh();
  });

  return () => {
    disposed = true;
    if (typeof unsubscribe === 'function') unsubscribe();
    container.replaceChildren();
  };
}
