import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { runPageCommand } from './commands';
import { isMacPlatform } from './platform';
import { shortcutOf } from './shortcutOf';
import type { Shortcut } from './shortcuts';

// The palette and the sheet load at their first use: the first screen carries only this listener.
const CommandPalette = lazy(() => import('./CommandPalette'));
const ShortcutSheet = lazy(() => import('./ShortcutSheet'));

const TEXT_INPUT = /^(text|search|email|url|tel|password|number)$/;

/** Whether keys pressed in `target` are typed text: a text field, a text area, an editor (contenteditable), a select's search. */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT') return true;
  return target.tagName === 'INPUT' && TEXT_INPUT.test((target as HTMLInputElement).type || 'text');
}

/** Whether a modal (antd's Modal or Drawer, any `aria-modal` dialog) other than the palette's own is open: it holds the keys then. */
function otherDialogOpen(): boolean {
  for (const element of document.querySelectorAll('.ant-modal-wrap, .ant-drawer-content-wrapper, [aria-modal="true"]')) {
    if (element.closest('[data-keys-dialog]')) continue;
    if (element.getClientRects().length > 0) return true;
  }
  return false;
}

/**
 * The window's keyboard (docs/using/keyboard.md): listens on the window,
 * after the focused element had the key, and
 * - never takes a key from a field or editor where text is typed, except
 *   the palette's own (Mod+K), which no text field uses; the chat's
 *   composer opts in (`data-app-shortcuts`) to the Mod+Shift ones;
 * - does nothing while a modal is open (it has the keys: Esc closes it);
 * - leaves a key another handler took (`defaultPrevented`) or one that
 *   ends an IME composition.
 * What a page does (stop, regenerate, focus the composer) goes through
 * `runPageCommand`: a key for a page that is not open does nothing.
 */
export default function KeyboardShortcuts() {
  const navigate = useNavigate();
  const mac = useMemo(() => isMacPlatform(navigator as Navigator & { userAgentData?: { platform?: string } }), []);
  const [open, setOpen] = useState<'palette' | 'sheet'>();
  // Mounted once opened (its chunk loaded), then kept: it opens at once the next time.
  const [used, setUsed] = useState<ReadonlySet<'palette' | 'sheet'>>(new Set());
  const openRef = useRef(open);
  openRef.current = open;

  const show = useCallback((which: 'palette' | 'sheet') => {
    setUsed((was) => (was.has(which) ? was : new Set([...was, which])));
    setOpen(which);
  }, []);
  const showSheet = useCallback(() => show('sheet'), [show]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const id: Shortcut['id'] | undefined = shortcutOf(event, mac);
      if (!id) return;
      // The palette's key closes it again; every other key belongs to the open palette or sheet.
      if (openRef.current) {
        if (id === 'palette' && openRef.current === 'palette') {
          event.preventDefault();
          setOpen(undefined);
        }
        return;
      }
      if (otherDialogOpen()) return;
      // A key pressed right after the palette closed can still reach its input (hidden, but focused until
      // the browser moves focus on its next frame): that input is no longer a text field the user types in.
      const closingDialog = event.target instanceof HTMLElement && event.target.closest('[data-keys-dialog]') !== null;
      const typing = typingIn(event.target) && !closingDialog;
      const optedIn = event.target instanceof HTMLElement && event.target.closest('[data-app-shortcuts]') !== null;
      if (typing && id !== 'palette' && !(optedIn && event.key.length === 1 && (event.ctrlKey || event.metaKey))) return;
      if (id === 'stop' && !runPageCommand('stop')) return;
      event.preventDefault();
      if (id === 'palette' || id === 'sheet') return show(id);
      if (id === 'newChat') return void navigate('/chat');
      if (id === 'searchConversations') {
        if (!runPageCommand('searchConversations')) void navigate('/chat?search=1');
        return;
      }
      if (id === 'focusComposer' || id === 'regenerate') runPageCommand(id);
    };
    window.addEventListener('keydown', onKey);
    document.documentElement.dataset.keysReady = '';
    return () => {
      window.removeEventListener('keydown', onKey);
      delete document.documentElement.dataset.keysReady;
    };
  }, [mac, navigate, show]);

  const close = () => setOpen(undefined);
  return (
    <Suspense fallback={null}>
      {used.has('palette') && <CommandPalette open={open === 'palette'} mac={mac} onClose={close} onShowSheet={showSheet} />}
      {used.has('sheet') && <ShortcutSheet open={open === 'sheet'} mac={mac} onClose={close} />}
    </Suspense>
  );
}
