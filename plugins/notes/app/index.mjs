// The Notes page: mounted by ChatOS in a sandboxed frame.
export function mount({ container }) {
  container.innerHTML = '<h2>Notes</h2><p>Ask an agent to add or list notes.</p>';
  return () => container.replaceChildren();
}
