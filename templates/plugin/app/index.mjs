// The app's page. ChatOS imports this module in a sandboxed frame and calls
// mount({ container, host, slots }); the function it returns runs on unmount.
// `host` is the bridge to ChatOS: host.context, host.theme, host.tools (this
// app's own MCP server), host.backend (backend/index.mjs), host.ui, host.events.
export function mount({ container, host }) {
  // The window's look comes as CSS variables (--chatos-color-text, --chatos-radius…, see ChatOS's docs/plugins/pages.md#styling-a-page-the-themes-css-variables).
  container.style.padding = '16px 24px';
  const heading = document.createElement('h2');
  heading.textContent = '__PLUGIN_NAME__';
  const text = document.createElement('p');
  text.textContent = 'Edit app/index.mjs to build this page.';
  text.style.color = 'var(--chatos-color-text-secondary)';
  const greeting = document.createElement('p');
  container.append(heading, text, greeting);
  host.backend.invoke('hello', { name: '__PLUGIN_NAME__' }).then(
    (result) => (greeting.textContent = result.text),
    (error) => (greeting.textContent = error.message),
  );
  return () => container.replaceChildren();
}
