// The app's page. ChatOS imports this module in a sandboxed frame and calls
// mount({ container, host, slots }); the function it returns runs on unmount.
export function mount({ container }) {
  const heading = document.createElement('h2');
  heading.textContent = '__PLUGIN_NAME__';
  const text = document.createElement('p');
  text.textContent = 'Edit app/index.mjs to build this page.';
  container.append(heading, text);
  return () => container.replaceChildren();
}
