/** How far (px) the pointer may move between press and release for the press to still be a click on what it pressed. */
const STILL_PX = 4;
/** What a press can mean to click: the list's buttons and links (a card's approve, a message's edit, a tool card's toggle). */
const CONTROL = 'button, [role="button"], a[href]';

/**
 * Clicks that the list moved away from under the pointer still land. A
 * browser clicks what is under both the press and the release, so a button
 * that moved in between (a row above it measured late, a card that grew, an
 * answer streaming in) got no click: the click went to a row around it and
 * the user's approve or edit was lost. When the pointer itself stayed still
 * and the control it pressed is no longer under it, that control is clicked.
 * A pointer that moved off the control before release still cancels, as
 * everywhere; a press that stayed on it gets the browser's own click, once.
 *
 * Returns the function that stops watching `box`.
 */
export function keepMovedClicks(box: HTMLElement): () => void {
  let held: { control: HTMLElement; x: number; y: number; pointer: number } | undefined;
  const press = (event: PointerEvent) => {
    const control = event.button === 0 && event.target instanceof Element ? event.target.closest<HTMLElement>(CONTROL) : null;
    held = control && box.contains(control) ? { control, x: event.clientX, y: event.clientY, pointer: event.pointerId } : undefined;
  };
  const release = (event: PointerEvent) => {
    const was = held;
    held = undefined;
    if (!was || event.pointerId !== was.pointer) return;
    if (Math.abs(event.clientX - was.x) > STILL_PX || Math.abs(event.clientY - was.y) > STILL_PX) return;
    const { control } = was;
    if (!control.isConnected || control.matches(':disabled, [aria-disabled="true"]')) return;
    // Still under the pointer (it moved a little or not at all): the browser's own click reaches it.
    const under = document.elementFromPoint(event.clientX, event.clientY);
    if (under && control.contains(under)) return;
    control.click();
  };
  const cancel = () => (held = undefined);
  box.addEventListener('pointerdown', press);
  // Captured at the window: the release may be over anything by now, and nothing under it can stop it reaching here.
  window.addEventListener('pointerup', release, true);
  window.addEventListener('pointercancel', cancel, true);
  return () => {
    box.removeEventListener('pointerdown', press);
    window.removeEventListener('pointerup', release, true);
    window.removeEventListener('pointercancel', cancel, true);
  };
}
