import { Drawer } from 'antd';
import type { ReactNode } from 'react';

/**
 * The drawer a page creates or edits one of its things in: the editor is
 * mounted only while it is open, and goes with its state when it closes.
 * The pages load it with their editor when it is first opened
 * (shell/lazyPart.tsx): their list is what they show first.
 */
export function EditorDrawer(props: { open: boolean; onClose(): void; size: string; title: ReactNode; testId?: string; children: ReactNode }) {
  return (
    <Drawer open={props.open} onClose={props.onClose} size={props.size} destroyOnHidden title={props.title} {...(props.testId ? { 'data-testid': props.testId } : {})}>
      {props.open ? props.children : null}
    </Drawer>
  );
}
