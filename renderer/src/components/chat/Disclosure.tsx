import { RightOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';

/**
 * A header that opens and closes what is under it, in plain elements (the
 * look of antd's small Collapse). What is under it is mounted only while it
 * is open. A long conversation's rows mount and unmount as the user
 * scrolls; antd's Collapse took its style sheet out of the page whenever
 * the last one unmounted and put it back with the next, and each such
 * change restyles the whole page.
 */
export function Disclosure(props: {
  open: boolean;
  onToggle(open: boolean): void;
  label: ReactNode;
  children: ReactNode;
  className?: string;
  ghost?: boolean;
  testId?: string;
  toggleTestId?: string;
}) {
  const { open, onToggle, label, children, className, ghost, testId, toggleTestId } = props;
  const classes = ['chat-disclosure', ghost ? 'chat-disclosure-ghost' : '', open ? 'chat-disclosure-open' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <div className={classes} data-testid={testId}>
      <button type="button" className="chat-disclosure-head" aria-expanded={open} onClick={() => onToggle(!open)} data-testid={toggleTestId}>
        <RightOutlined className="chat-disclosure-arrow" />
        {label}
      </button>
      {open && <div className="chat-disclosure-body">{children}</div>}
    </div>
  );
}
