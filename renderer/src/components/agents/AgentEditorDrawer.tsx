import { useTranslation } from 'react-i18next';
import type { Agent } from '../../../../src/shared/agents';
import { EditorDrawer } from '../../shell/EditorDrawer';
import { AgentEditor } from './AgentEditor';
import '../../i18n/load/agents';

export type EditorState = { mode: 'closed' } | { mode: 'create' } | { mode: 'edit'; agent: Agent };

/**
 * The Agents page's drawer with the editor (form, selects, live preview) in it: one chunk the page loads when the
 * editor is first opened, since the list is what the page shows first (the drawer is not, and antd's Drawer weighs ~5 KB gzip).
 */
export default function AgentEditorDrawer({ editor, onClose, onSaved }: { editor: EditorState; onClose(): void; onSaved(agent: Agent): void }) {
  const { t } = useTranslation();
  const agent = editor.mode === 'edit' ? editor.agent : undefined;
  return (
    <EditorDrawer
      open={editor.mode !== 'closed'}
      onClose={onClose}
      size="min(1280px, 96vw)"
      title={agent ? t('agents.editor.editTitle', { name: agent.name }) : t('agents.editor.createTitle')}
      testId="agent-editor"
    >
      <AgentEditor key={agent?.id ?? 'new'} agent={agent} onCancel={onClose} onSaved={onSaved} />
    </EditorDrawer>
  );
}
