// The Workbench panel page: what this app is, where it runs, and what it may use,
// styled only with the host's theme variables (--chatos-…), so it follows a theme switch.

const STYLE = `
.wb { padding: 16px 20px; display: grid; gap: 12px; max-width: 860px; }
.wb h2 { margin: 0; font-size: 18px; }
.wb p { margin: 0; color: var(--chatos-color-text-secondary); }
.wb section { border: 1px solid var(--chatos-color-border-secondary); border-radius: var(--chatos-radius); background: var(--chatos-color-bg-elevated); padding: 12px 16px; }
.wb h3 { margin: 0 0 8px; font-size: 14px; }
.wb section h3:not(:first-child) { margin-top: 12px; }
.wb dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
.wb dt { color: var(--chatos-color-text-secondary); }
.wb dd { margin: 0; font-family: var(--chatos-font-family-code); }
.wb ul { margin: 0; padding-left: 18px; }
.wb code { font-family: var(--chatos-font-family-code); background: var(--chatos-color-fill); border-radius: var(--chatos-radius-sm); padding: 0 4px; }
.wb .tag { color: var(--chatos-color-primary); }
`;

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, props);
  node.append(...children);
  return node;
}

function list(items, empty) {
  if (!items.length) return el('p', { textContent: empty });
  return el('ul', {}, ...items.map((item) => el('li', {}, el('code', { textContent: item.id }), item.description || item.title ? ` — ${item.description ?? item.title}` : '')));
}

export function mount({ container, host }) {
  const context = host.context.get();
  const theme = el('dd', { textContent: context.theme, className: 'tag' });
  const using = el('div', {}, el('p', { textContent: 'Asking the host…' }));
  container.replaceChildren(
    el('style', { textContent: STYLE }),
    el(
      'div',
      { className: 'wb' },
      el('h2', { textContent: 'Workbench' }),
      el('p', { textContent: 'Gathers existing MCP servers and prompts for agents (it brings no server of its own). Which of them an agent gets is chosen per agent, on the Agents page.' }),
      el(
        'section',
        {},
        el('h3', { textContent: 'Where this page runs' }),
        el(
          'dl',
          {},
          el('dt', { textContent: 'app' }),
          el('dd', { textContent: `${context.pluginId} / ${context.appId}` }),
          el('dt', { textContent: 'surface' }),
          el('dd', { textContent: context.surface }),
          el('dt', { textContent: 'theme' }),
          theme,
        ),
      ),
      el('section', {}, el('h3', { textContent: 'What it may use' }), using),
    ),
  );
  const offTheme = host.theme.onChange((next) => {
    theme.textContent = next;
  });
  host.registry.list().then(
    (view) => {
      using.replaceChildren(
        el('p', { textContent: `As registry app ${view.appId}: its own registrations and what was granted to it (Registry page).` }),
        el('h3', { textContent: 'Servers' }),
        list(view.servers, 'No server yet: grant one on the Registry page.'),
        el('h3', { textContent: 'Prompts' }),
        list(view.prompts, 'No prompt yet: grant one on the Registry page.'),
      );
    },
    (error) => using.replaceChildren(el('p', { textContent: `The host did not answer: ${error.message}` })),
  );
  return () => {
    offTheme();
    container.replaceChildren();
  };
}
