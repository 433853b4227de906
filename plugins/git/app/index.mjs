// The Git page. ChatOS mounts it in a sandboxed frame; it reaches git only
// through its backend (backend/index.mjs, the same git code as the app's MCP
// server), on repositories the user added here. Plain DOM styled with the
// window's CSS variables; nothing loaded from outside.
import { TEXT } from './text.mjs';

function el(tag, props = {}, style = {}) {
  const node = Object.assign(document.createElement(tag), props);
  Object.assign(node.style, style);
  return node;
}

const testid = (node, id) => ((node.dataset.testid = id), node);
const button = (label, id, primary = false) =>
  testid(
    el(
      'button',
      { type: 'button', textContent: label },
      {
        padding: '2px 10px',
        border: '1px solid var(--chatos-color-border)',
        borderRadius: 'var(--chatos-radius-sm)',
        background: primary ? 'var(--chatos-color-primary)' : 'var(--chatos-color-bg-elevated)',
        color: primary ? '#fff' : 'var(--chatos-color-text)',
        cursor: 'pointer',
        font: 'inherit',
      },
    ),
    id,
  );
const input = (props, id, style = {}) =>
  testid(
    el(props.rows ? 'textarea' : 'input', props, {
      padding: '4px 8px',
      border: '1px solid var(--chatos-color-border)',
      borderRadius: 'var(--chatos-radius-sm)',
      background: 'var(--chatos-color-bg)',
      color: 'var(--chatos-color-text)',
      font: 'inherit',
      ...style,
    }),
    id,
  );
const section = (title) => {
  const box = el('section', {}, { border: '1px solid var(--chatos-color-border-secondary)', borderRadius: 'var(--chatos-radius)', padding: '8px 12px', minWidth: '0' });
  const heading = el('h3', { textContent: title }, { margin: '0 0 6px', fontSize: '14px' });
  box.append(heading);
  return { box, heading };
};
/** How a diff line reads: added, removed, a hunk's start, a file's header, or context; each in the window's colours. */
const DIFF_KINDS = [
  ['file', /^(diff --git |index |--- |\+\+\+ |new file|deleted file|similarity |rename )/, { color: 'var(--chatos-color-text-secondary)', fontWeight: '600' }],
  ['add', /^\+/, { color: 'var(--chatos-color-success)', background: 'color-mix(in srgb, var(--chatos-color-success) 12%, transparent)' }],
  ['remove', /^-/, { color: 'var(--chatos-color-error)', background: 'color-mix(in srgb, var(--chatos-color-error) 12%, transparent)' }],
  ['hunk', /^@@/, { color: 'var(--chatos-color-primary)' }],
];

/** A diff, one coloured line per span (text only: a file's content is never markup here); `empty` when there is none. */
function paintDiff(box, diff, empty) {
  if (!diff) return box.replaceChildren(el('span', { textContent: empty }, { color: 'var(--chatos-color-text-secondary)' }));
  const lines = diff.replace(/\n$/, '').split('\n');
  box.replaceChildren(
    ...lines.map((line) => {
      const [kind, , style] = DIFF_KINDS.find(([, pattern]) => pattern.test(line)) ?? ['context', null, {}];
      const span = el('span', { textContent: `${line}\n` }, { display: 'block', ...style });
      span.dataset.kind = kind;
      return span;
    }),
  );
}

const pre = (id) =>
  testid(
    el(
      'pre',
      {},
      {
        margin: '0',
        maxHeight: '320px',
        overflow: 'auto',
        fontFamily: 'var(--chatos-font-family-code)',
        fontSize: '12px',
        background: 'var(--chatos-color-fill)',
        padding: '8px',
        borderRadius: 'var(--chatos-radius-sm)',
        whiteSpace: 'pre',
      },
    ),
    id,
  );

export function mount({ container, host }) {
  let t = TEXT.en;
  let disposed = false;
  let repo = null;
  let diffStaged = false;
  let armedCheckout = null;

  const root = el('div', { id: 'git-app' }, { padding: '12px 16px', display: 'flex', flexDirection: 'column', gap: '10px', boxSizing: 'border-box' });
  const pick = el('div', {}, { display: 'flex', gap: '8px', alignItems: 'center', flexWrap: 'wrap' });
  const title = el('h2', {}, { margin: '0', fontSize: '18px' });
  const select = testid(el('select', {}, { padding: '3px 6px', font: 'inherit', maxWidth: '40ch' }), 'git-repo');
  const pathInput = input({ type: 'text', maxLength: 4096 }, 'git-path', { flex: '1', minWidth: '24ch' });
  const addButton = button('', 'git-add');
  const removeButton = button('', 'git-remove');
  const refreshButton = button('', 'git-refresh');
  pick.append(title, select, pathInput, addButton, removeButton, refreshButton);
  const message = testid(el('p', { role: 'status' }, { margin: '0', minHeight: '1.2em', color: 'var(--chatos-color-text-secondary)' }), 'git-message');
  const branchLine = testid(el('p', {}, { margin: '0', fontWeight: '600' }), 'git-branch');

  const grid = el('div', {}, { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(320px, 1fr))', gap: '10px' });
  const unstaged = section('');
  const unstagedList = testid(el('ul', {}, { listStyle: 'none', margin: '0 0 6px', padding: '0' }), 'git-unstaged');
  const stageAll = button('', 'git-stage-all');
  unstaged.box.append(unstagedList, stageAll);
  const staged = section('');
  const stagedList = testid(el('ul', {}, { listStyle: 'none', margin: '0 0 6px', padding: '0' }), 'git-staged');
  const unstageAll = button('', 'git-unstage-all');
  const commitMessage = input({ rows: 3, maxLength: 16384 }, 'git-commit-message', { width: '100%', boxSizing: 'border-box', marginTop: '6px', resize: 'vertical' });
  const commitButton = button('', 'git-commit', true);
  staged.box.append(stagedList, unstageAll, commitMessage, commitButton);
  const diff = section('');
  const diffText = pre('git-diff');
  diff.box.append(diffText);
  const branches = section('');
  const branchList = testid(el('ul', {}, { listStyle: 'none', margin: '0 0 6px', padding: '0' }), 'git-branches');
  const newBranch = el('div', {}, { display: 'flex', gap: '6px' });
  const newBranchName = input({ type: 'text', maxLength: 255 }, 'git-new-branch', { flex: '1' });
  const createButton = button('', 'git-create-branch');
  newBranch.append(newBranchName, createButton);
  branches.box.append(branchList, newBranch);
  const history = section('');
  history.box.style.gridColumn = '1 / -1';
  const logText = pre('git-log');
  history.box.append(logText);
  grid.append(unstaged.box, staged.box, diff.box, branches.box, history.box);
  root.append(pick, message, branchLine, grid);
  container.replaceChildren(root);

  const say = (text, error = false) => {
    if (disposed) return;
    message.textContent = text ?? '';
    message.style.color = error ? 'var(--chatos-color-error)' : 'var(--chatos-color-text-secondary)';
  };
  const call = async (method, params = {}) => host.backend.invoke(method, { repo, ...params });
  /** Runs a page action: errors land in the message line, and the view is re-read after a change. */
  const act = async (work, { reread = true } = {}) => {
    try {
      const done = await work();
      if (reread) await refresh();
      return done;
    } catch (error) {
      say(error.message, true);
      return undefined;
    }
  };

  const fileRow = (file, side) => {
    const row = testid(el('li', {}, { display: 'flex', gap: '8px', alignItems: 'center', padding: '2px 0' }), `git-file-${side}`);
    row.dataset.path = file.path;
    const code = side === 'staged' ? file.index : file.worktree;
    const name = el('span', { textContent: `${code} ${file.path}`, title: file.path }, { flex: '1', fontFamily: 'var(--chatos-font-family-code)', cursor: 'pointer', overflowWrap: 'anywhere' });
    name.addEventListener('click', () => void showDiff(side === 'staged', [file.path]));
    const toggle = button(side === 'staged' ? t.unstage : t.stage, side === 'staged' ? 'git-unstage-file' : 'git-stage-file');
    toggle.addEventListener('click', () => void act(() => call(side === 'staged' ? 'unstage' : 'stage', { paths: [file.path] })));
    row.append(name, toggle);
    return row;
  };
  const fill = (list, files, side) =>
    list.replaceChildren(...(files.length ? files.map((f) => fileRow(f, side)) : [el('li', { textContent: t.clean }, { color: 'var(--chatos-color-text-secondary)' })]));

  async function showDiff(stagedSide, paths) {
    diffStaged = stagedSide;
    diff.heading.textContent = stagedSide ? t.diffStaged : t.diffUnstaged;
    const result = await call('diff', { staged: stagedSide, paths });
    if (!disposed) paintDiff(diffText, result.diff, t.noDiff);
  }

  function paintBranches(result) {
    branchList.replaceChildren(
      ...result.branches.map((b) => {
        const row = testid(el('li', {}, { display: 'flex', gap: '8px', alignItems: 'center', padding: '2px 0' }), 'git-branch-row');
        row.dataset.branch = b.name;
        row.append(el('span', { textContent: `${b.current ? '* ' : ''}${b.name}  ${b.commit}` }, { flex: '1', fontFamily: 'var(--chatos-font-family-code)', fontWeight: b.current ? '600' : '400' }));
        if (b.current) row.append(el('span', { textContent: t.current }, { color: 'var(--chatos-color-text-secondary)' }));
        else {
          const go = button(armedCheckout === b.name ? t.confirmCheckout(b.name) : t.checkout, 'git-checkout');
          // Two clicks: a checkout changes the files in the folder, so the first click only arms it.
          go.addEventListener('click', () => {
            if (armedCheckout !== b.name) {
              armedCheckout = b.name;
              paintBranches(result);
              return;
            }
            armedCheckout = null;
            void act(() => call('checkout', { branch: b.name }));
          });
          row.append(go);
        }
        return row;
      }),
    );
  }

  async function refresh() {
    if (!repo) {
      branchLine.textContent = t.noRepos;
      for (const list of [unstagedList, stagedList, branchList]) list.replaceChildren();
      diffText.textContent = '';
      logText.textContent = '';
      return;
    }
    const [status, branchResult, log] = await Promise.all([call('status'), call('branches'), call('log')]);
    if (disposed) return;
    branchLine.textContent = t.onBranch(status);
    fill(unstagedList, status.unstaged, 'unstaged');
    fill(stagedList, status.staged, 'staged');
    paintBranches(branchResult);
    logText.textContent = log.log;
    await showDiff(diffStaged, undefined);
  }

  async function loadRepos(selected) {
    const { repos } = await host.backend.invoke('repos', {});
    if (disposed) return;
    repo = selected && repos.includes(selected) ? selected : repos.includes(repo) ? repo : (repos[0] ?? null);
    select.replaceChildren(...repos.map((r) => el('option', { value: r, textContent: r, selected: r === repo })));
    await refresh();
  }

  const label = () => {
    title.textContent = t.title;
    select.title = t.repo;
    pathInput.placeholder = t.pathPlaceholder;
    addButton.textContent = t.add;
    removeButton.textContent = t.remove;
    refreshButton.textContent = t.refresh;
    unstaged.heading.textContent = t.unstaged;
    staged.heading.textContent = t.staged;
    stageAll.textContent = t.stageAll;
    unstageAll.textContent = t.unstageAll;
    commitMessage.placeholder = t.messagePlaceholder;
    commitButton.textContent = t.commit;
    diff.heading.textContent = diffStaged ? t.diffStaged : t.diffUnstaged;
    branches.heading.textContent = t.branches;
    newBranchName.placeholder = t.newBranch;
    createButton.textContent = t.create;
    history.heading.textContent = t.log;
  };

  const filesOf = (list) => [...list.querySelectorAll('li[data-path]')].map((li) => li.dataset.path);
  select.addEventListener('change', () => void act(() => loadRepos(select.value), { reread: false }));
  addButton.addEventListener(
    'click',
    () =>
      void act(
        async () => {
          const { repo: added } = await host.backend.invoke('addRepo', { path: pathInput.value.trim() });
          pathInput.value = '';
          say('');
          await loadRepos(added);
        },
        { reread: false },
      ),
  );
  removeButton.addEventListener('click', () => void act(async () => repo && (await host.backend.invoke('removeRepo', { repo }), await loadRepos()), { reread: false }));
  refreshButton.addEventListener('click', () => void act(() => (say(''), refresh()), { reread: false }));
  stageAll.addEventListener('click', () => void act(async () => filesOf(unstagedList).length && call('stage', { paths: filesOf(unstagedList) })));
  unstageAll.addEventListener('click', () => void act(async () => filesOf(stagedList).length && call('unstage', { paths: filesOf(stagedList) })));
  commitButton.addEventListener(
    'click',
    () =>
      void act(async () => {
        const done = await call('commit', { message: commitMessage.value });
        commitMessage.value = '';
        say(t.committed(done));
      }),
  );
  createButton.addEventListener(
    'click',
    () =>
      void act(async () => {
        await call('checkout', { branch: newBranchName.value.trim(), create: true });
        newBranchName.value = '';
      }),
  );

  void host.context.get().then((context) => {
    t = TEXT[context.locale] ?? TEXT.en;
    label();
    say(t.loading);
    return act(async () => (await loadRepos(), say('')), { reread: false });
  });

  return () => {
    disposed = true;
    container.replaceChildren();
  };
}
