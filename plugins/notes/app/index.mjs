// The Notes page. ChatOS mounts it in a sandboxed frame on its own origin;
// it reaches the host only through `host` (the postMessage bridge): its own
// MCP server's tools for the notes, its backend for the stats line.
// Plain DOM, no framework, nothing loaded from outside. Colours are set
// through the CSSOM (el.style), which a strict CSP allows, unlike markup styles.

const TEXT = {
  en: {
    title: 'Notes',
    placeholder: 'Write a note…',
    add: 'Add',
    delete: 'Delete',
    empty: 'No notes yet.',
    loading: 'Loading…',
    stats: (s) => `${s.count} note${s.count === 1 ? '' : 's'}, ${s.characters} characters`,
    statsFailed: (m) => `Stats unavailable: ${m}`,
  },
  zh: {
    title: '笔记',
    placeholder: '写一条笔记…',
    add: '添加',
    delete: '删除',
    empty: '还没有笔记。',
    loading: '加载中…',
    stats: (s) => `${s.count} 条笔记，共 ${s.characters} 个字符`,
    statsFailed: (m) => `无法获取统计：${m}`,
  },
};

// The window's design tokens (the page shell sets them per theme, and switches them live): the page follows light
// and dark with no colours of its own.
const COLORS = {
  '--bg': 'var(--chatos-color-bg)',
  '--fg': 'var(--chatos-color-text)',
  '--muted': 'var(--chatos-color-text-secondary)',
  '--border': 'var(--chatos-color-border-secondary)',
  '--accent': 'var(--chatos-color-primary)',
  '--accent-fg': '#ffffff',
  '--danger': 'var(--chatos-color-error)',
};

function el(tag, props = {}, style = {}) {
  const node = Object.assign(document.createElement(tag), props);
  Object.assign(node.style, style);
  return node;
}

const buttonStyle = (color) => ({
  padding: '4px 12px',
  border: '1px solid transparent',
  borderRadius: 'var(--chatos-radius-sm)',
  background: color,
  color: 'var(--accent-fg)',
  cursor: 'pointer',
  font: 'inherit',
});

/** The notes the list_notes tool returned: its structuredContent, else its JSON text. */
function notesOf(result) {
  if (Array.isArray(result?.structuredContent?.notes)) return result.structuredContent.notes;
  const text = result?.content?.find((c) => c.type === 'text')?.text;
  try {
    return Array.isArray(JSON.parse(text)) ? JSON.parse(text) : [];
  } catch {
    return [];
  }
}

const errorText = (result) => result?.content?.find((c) => c.type === 'text')?.text ?? 'failed';

export function mount({ container, host }) {
  let t = TEXT.en;
  let disposed = false;
  const root = el(
    'div',
    { id: 'notes-app' },
    { fontFamily: 'var(--chatos-font-family)', fontSize: 'var(--chatos-font-size)', padding: '16px', minHeight: '100%', boxSizing: 'border-box', background: 'var(--bg)', color: 'var(--fg)' },
  );
  const heading = el('h2', {}, { margin: '0 0 12px', fontSize: '18px' });
  // A div, not a form: the frame is sandboxed without allow-forms, so a form submission would be blocked.
  const form = el('div', {}, { display: 'flex', gap: '8px', marginBottom: '12px' });
  const input = el(
    'input',
    { id: 'notes-input', type: 'text', maxLength: 500 },
    { flex: '1', padding: '4px 8px', border: '1px solid var(--chatos-color-border)', borderRadius: 'var(--chatos-radius-sm)', background: 'var(--bg)', color: 'var(--fg)', font: 'inherit' },
  );
  const add = el('button', { id: 'notes-add', type: 'button' }, buttonStyle('var(--accent)'));
  const list = el('ul', { id: 'notes-list' }, { listStyle: 'none', padding: '0', margin: '0 0 12px' });
  const stats = el('p', { id: 'notes-stats' }, { color: 'var(--muted)', margin: '0' });
  const status = el('p', { id: 'notes-status', role: 'status' }, { color: 'var(--danger)', margin: '8px 0 0' });
  input.dataset.testid = 'notes-input';
  add.dataset.testid = 'notes-add';
  list.dataset.testid = 'notes-list';
  stats.dataset.testid = 'notes-stats';
  status.dataset.testid = 'notes-status';
  form.append(input, add);
  root.append(heading, form, list, stats, status);
  container.replaceChildren(root);

  for (const [name, value] of Object.entries(COLORS)) root.style.setProperty(name, value);
  const label = () => {
    heading.textContent = t.title;
    input.placeholder = t.placeholder;
    add.textContent = t.add;
  };
  const showError = (message) => {
    if (!disposed) status.textContent = message ?? '';
  };

  const renderNotes = (notes) => {
    if (notes.length === 0) return list.replaceChildren(el('li', { textContent: t.empty }, { color: 'var(--muted)' }));
    list.replaceChildren(
      ...notes.map((note) => {
        const item = el('li', {}, { display: 'flex', alignItems: 'center', gap: '8px', padding: '6px 0', borderBottom: '1px solid var(--border)' });
        item.dataset.testid = 'notes-item';
        item.dataset.noteId = note.id;
        const text = el('span', { textContent: note.text ? `${note.title}: ${note.text}` : note.title }, { flex: '1', overflowWrap: 'anywhere' });
        const remove = el('button', { type: 'button', textContent: t.delete }, buttonStyle('var(--danger)'));
        remove.dataset.testid = 'notes-delete';
        remove.addEventListener('click', () => void run(() => host.tools.call('delete_note', { id: note.id }), remove));
        item.append(text, remove);
        return item;
      }),
    );
  };

  const refreshStats = async () => {
    try {
      const result = await host.backend.invoke('stats', {});
      if (!disposed) stats.textContent = t.stats(result);
    } catch (error) {
      if (!disposed) stats.textContent = t.statsFailed(error.message);
    }
  };

  const refresh = async () => {
    try {
      const result = await host.tools.call('list_notes', {});
      if (disposed) return;
      if (result.isError) return showError(errorText(result));
      renderNotes(notesOf(result));
    } catch (error) {
      showError(error.message);
    }
    await refreshStats();
  };

  /** Runs a changing tool call (the gateway may ask the user first), then re-reads the list. */
  const run = async (call, button) => {
    button.disabled = true;
    showError('');
    try {
      const result = await call();
      if (result.isError) showError(errorText(result));
      else host.events.emit('notes.changed', {});
    } catch (error) {
      showError(error.message);
    } finally {
      button.disabled = false;
    }
    await refresh();
  };

  const addNote = () => {
    const title = input.value.trim();
    if (!title) return;
    void run(async () => {
      const result = await host.tools.call('add_note', { title, text: '' });
      if (!result.isError && !disposed) input.value = '';
      return result;
    }, add);
  };
  add.addEventListener('click', addNote);
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') addNote();
  });

  list.replaceChildren(el('li', { textContent: t.loading }, { color: 'var(--muted)' }));
  label();
  void host.context.get().then(
    (context) => {
      if (disposed) return;
      t = TEXT[context.locale] ?? TEXT.en;
      label();
      return refresh();
    },
    (error) => showError(error.message),
  );

  return () => {
    disposed = true;
    container.replaceChildren();
  };
}
