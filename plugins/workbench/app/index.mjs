// The Workbench panel page.
export function mount({ container }) {
  container.innerHTML = '<h2>Workbench</h2><p>The servers and prompts this panel exposes are chosen per agent.</p>';
  return () => container.replaceChildren();
}
