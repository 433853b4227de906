import { Drawer } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Agent } from '../../../../src/shared/agents';
import { AgentEditor } from './AgentEditor';
import '../../i18n/load/agents';

export type EditorState = { mode: 'closed' } | { mode: 'create' } | { mode: 'edit'; agent: Agent };

/**
 * The Agents page's drawer with the editor (form, selects, live preview) in it: one chunk the page loads when the
 * editor is first opened, since the list is what the page shows first (the drawer is not, and antd's Drawer weighs ~5 KB gzip).
 */
export default function AgentEditorDrawer({ editor, onClose, onSaved }: { editor: EditorState; onClose(): void; onSaved(agent: Agent): void }) {
  const { t } = useTranslation();
  const open = editor.mode !== 'closed';
  return (
    <Drawer
      open={open}
      onClose={onClose}
      size="min(1280px, 96vw)"
      destroyOnHidden
      title={editor.mode === 'edit' ? t('agents.editor.editTitle', { name: editor.agent.name }) : t('agents.editor.createTitle')}
      data-testid="agent-editor"
    >
      {open && <AgentEditor key={editor.mode === 'edit' ? editor.agent.id : 'new'} agent={editor.mode === 'edit' ? editor.agent : undefined} onCancel={onClose} onSaved={onSaved} />}
    </Drawer>
  );
}
