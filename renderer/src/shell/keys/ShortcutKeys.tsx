import { keyLabel, SHORTCUTS, type Shortcut } from './shortcuts';

/** A shortcut's keys as the platform writes them, each in its own <kbd>. */
export function ShortcutKeys({ id, mac }: { id: Shortcut['id']; mac: boolean }) {
  const shortcut = SHORTCUTS.find((s) => s.id === id);
  if (!shortcut) return null;
  return (
    <span className="shortcut-keys" data-testid={`shortcut-keys-${id}`}>
      {shortcut.keys.map((key) => (
        <kbd key={key}>{keyLabel(key, mac)}</kbd>
      ))}
    </span>
  );
}
