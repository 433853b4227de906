import type { ReactNode } from 'react';

/**
 * A small icon-only button, in plain elements styled like antd's small
 * text button. The rows of a long conversation mount and unmount as the
 * user scrolls: each antd Button (with its wave, tokens and style hooks)
 * and each Tooltip costs on every mount, and rows hold several.
 */
export function IconButton(props: { icon: ReactNode; label: string; title?: string; disabled?: boolean; onClick(): void; testId?: string; data?: Record<`data-${string}`, string | boolean> }) {
  const { icon, label, title, disabled, onClick, testId, data } = props;
  return (
    <button type="button" className="chat-icon-button" title={title ?? label} aria-label={label} disabled={disabled} onClick={onClick} data-testid={testId} {...data}>
      {icon}
    </button>
  );
}
