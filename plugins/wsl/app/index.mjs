// The WSL page: the distributions and their state, with start and stop and a
// command box. The list comes from the backend; start, stop and run go
// through the app's own MCP server tools, so the host asks the user first.
// Off Windows it says WSL is Windows-only and offers nothing to run.
const TEXT = {
  en: {
    title: 'WSL',
    refresh: 'Refresh',
    none: 'No distributions are installed.',
    start: 'Start',
    stop: 'Stop',
    run: 'Run',
    isDefault: 'default',
    commandPlaceholder: 'Program and arguments, one per line (no shell)',
    exit: (code) => `exit code ${code}`,
  },
  zh: {
    title: 'WSL',
    refresh: '刷新',
    none: '没有安装任何发行版。',
    start: '启动',
    stop: '停止',
    run: '运行',
    isDefault: '默认',
    commandPlaceholder: '程序和参数，每行一个（不经过 shell）',
    exit: (code) => `退出码 ${code}`,
  },
};
const ONLY_WINDOWS = { en: 'WSL is available only on Windows; this app has nothing to run on this computer.', zh: 'WSL 仅在 Windows 上可用；此应用在这台电脑上没有可运行的内容。' };

function el(tag, props = {}, style = {}) {
  const node = Object.assign(document.createElement(tag), props);
  Object.assign(node.style, style);
  return node;
}
const button = (label, id) => {
  const node = el(
    'button',
    { type: 'button', textContent: label },
    {
      padding: '2px 10px',
      border: '1px solid var(--chatos-color-border)',
      borderRadius: 'var(--chatos-radius-sm)',
      background: 'var(--chatos-color-bg-elevated)',
      color: 'var(--chatos-color-text)',
      cursor: 'pointer',
      font: 'inherit',
    },
  );
  node.dataset.testid = id;
  return node;
};
const resultText = (result) => result?.content?.find((c) => c.type === 'text')?.text ?? '';

export function mount({ container, host }) {
  let t = TEXT.en;
  let lang = 'en';
  let disposed = false;
  const root = el('div', { id: 'wsl-app' }, { padding: '12px 16px', display: 'flex', flexDirection: 'column', gap: '10px' });
  const title = el('h2', {}, { margin: '0', fontSize: '18px' });
  const message = el('p', { role: 'status' }, { margin: '0', minHeight: '1.2em' });
  message.dataset.testid = 'wsl-message';
  const list = el('ul', {}, { listStyle: 'none', margin: '0', padding: '0' });
  list.dataset.testid = 'wsl-list';
  const output = el('pre', {}, { margin: '0', maxHeight: '320px', overflow: 'auto', fontFamily: 'var(--chatos-font-family-code)', background: 'var(--chatos-color-fill)', padding: '8px' });
  output.dataset.testid = 'wsl-output';
  // Shown once a command has printed something.
  output.hidden = true;
  root.append(title, message, list, output);
  container.replaceChildren(root);
  const say = (text, error = false) => {
    if (disposed) return;
    message.textContent = text;
    message.style.color = error ? 'var(--chatos-color-error)' : 'var(--chatos-color-text-secondary)';
  };

  const tool = async (name, args) => {
    const result = await host.tools.call(name, args);
    if (result.isError) throw new Error(resultText(result) || name);
    return result;
  };

  const row = (d) => {
    const item = el('li', {}, { display: 'flex', gap: '8px', alignItems: 'center', padding: '4px 0', flexWrap: 'wrap' });
    item.dataset.testid = 'wsl-distribution';
    item.dataset.name = d.name;
    item.append(el('span', { textContent: `${d.name}${d.default ? ` (${t.isDefault})` : ''} · ${d.state} · WSL ${d.version}` }, { flex: '1', fontFamily: 'var(--chatos-font-family-code)' }));
    const toggle = button(d.state === 'Running' ? t.stop : t.start, 'wsl-toggle');
    toggle.addEventListener('click', () => void act(() => tool(d.state === 'Running' ? 'stop_distribution' : 'start_distribution', { distribution: d.name })));
    const command = el('textarea', { rows: 1, placeholder: t.commandPlaceholder }, { flexBasis: '100%', font: 'inherit' });
    const run = button(t.run, 'wsl-run');
    run.addEventListener(
      'click',
      () =>
        void act(async () => {
          const parts = command.value.split('\n').filter((line) => line !== '');
          const done = (await tool('run_command', { distribution: d.name, command: parts })).structuredContent;
          output.hidden = false;
          output.textContent = `${done.output}${done.errors}\n(${t.exit(done.exitCode)})`;
        }),
    );
    item.append(toggle, command, run);
    return item;
  };

  async function refresh() {
    const { distributions } = await host.backend.invoke('list', {});
    if (!disposed) list.replaceChildren(...(distributions.length ? distributions.map(row) : [el('li', { textContent: t.none })]));
  }
  async function act(work) {
    try {
      await work();
      say('');
      await refresh();
    } catch (error) {
      say(error.message, true);
    }
  }

  void host.context.get().then(async (context) => {
    lang = context.locale === 'zh' ? 'zh' : 'en';
    t = TEXT[lang];
    title.textContent = t.title;
    const refreshButton = button(t.refresh, 'wsl-refresh');
    refreshButton.addEventListener('click', () => void act(async () => {}));
    const platform = await host.backend.invoke('platform', {});
    if (!platform.windows) return say(ONLY_WINDOWS[lang]);
    title.after(refreshButton);
    await act(async () => {});
  });

  return () => {
    disposed = true;
    container.replaceChildren();
  };
}
