// The compact surface for side panels.
export function mount({ container }) {
  container.textContent = 'Notes';
  return () => container.replaceChildren();
}
