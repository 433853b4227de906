import { useTranslation } from 'react-i18next';
import type { HostPromptView } from '../../../../src/shared/hostPrompts';
import { EditorDrawer } from '../../shell/EditorDrawer';
import { PromptEditor } from './PromptEditor';
import '../../i18n/load/prompts';

export type PromptEditorState = { mode: 'closed' } | { mode: 'create' } | { mode: 'edit'; prompt: HostPromptView };

/** The Prompts page's editor in its drawer: one chunk (antd's Drawer, Form and inputs), loaded when first opened. */
export default function PromptEditorDrawer({ editor, onClose, onSaved }: { editor: PromptEditorState; onClose(): void; onSaved(prompt: HostPromptView): void }) {
  const { t } = useTranslation();
  const prompt = editor.mode === 'edit' ? editor.prompt : undefined;
  return (
    <EditorDrawer
      open={editor.mode !== 'closed'}
      onClose={onClose}
      size="min(760px, 96vw)"
      title={prompt ? t('prompts.editor.editTitle', { name: prompt.name }) : t('prompts.editor.createTitle')}
      testId="prompt-editor"
    >
      <PromptEditor key={prompt?.name ?? 'new'} {...(prompt ? { prompt } : {})} onCancel={onClose} onSaved={onSaved} />
    </EditorDrawer>
  );
}
