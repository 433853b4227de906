import { useTranslation } from 'react-i18next';
import type { KnowledgeBase } from '../../../../src/shared/knowledge';
import { EditorDrawer } from '../../shell/EditorDrawer';
import { KnowledgeBaseForm } from './KnowledgeBaseForm';
import '../../i18n/load/knowledge';

export type KnowledgeEditorState = { mode: 'closed' } | { mode: 'create' } | { mode: 'edit'; base: KnowledgeBase };

/** The Knowledge page's form for a base in its drawer: one chunk (antd's Drawer, Form, InputNumber), loaded when first opened. */
export default function KnowledgeBaseDrawer({ editor, onClose, onSaved }: { editor: KnowledgeEditorState; onClose(): void; onSaved(base: KnowledgeBase): void }) {
  const { t } = useTranslation();
  const base = editor.mode === 'edit' ? editor.base : undefined;
  return (
    <EditorDrawer open={editor.mode !== 'closed'} onClose={onClose} size="min(560px, 96vw)" title={base ? t('knowledge.form.editTitle', { name: base.name }) : t('knowledge.form.createTitle')}>
      <KnowledgeBaseForm {...(base ? { base } : {})} onCancel={onClose} onSaved={onSaved} />
    </EditorDrawer>
  );
}
