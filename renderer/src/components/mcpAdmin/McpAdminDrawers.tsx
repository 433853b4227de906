import { App as AntApp, Drawer, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import type { McpServerEntryView } from '../../../../src/shared/mcpAdmin';
import { lazyPart } from '../../shell/lazyPart';
import type { ServerDraft } from './serverDraft';
import '../../i18n/load/mcpAdmin';

export type EditorState = { mode: 'closed' } | { mode: 'create'; initial?: ServerDraft } | { mode: 'edit'; server: McpServerEntryView };

// Each form loads when its drawer is first opened: the editor does not bring the import's table, nor the import the editor's inputs.
const ServerEditor = lazyPart(() => import('./ServerEditor').then((m) => m.ServerEditor), <Skeleton active paragraph={{ rows: 8 }} />);
const ImportPanel = lazyPart(() => import('./ImportPanel').then((m) => m.ImportPanel), <Skeleton active paragraph={{ rows: 8 }} />);

/**
 * The MCP servers page's add/edit and import drawers (McpAdminContext opens
 * them): one chunk the page loads when either is first opened, since the
 * servers are what the page shows first.
 */
export default function McpAdminDrawers(props: { editor: EditorState; importing: boolean; onEditorClosed(): void; onImportClosed(): void; onChanged(): void }) {
  const { editor, importing } = props;
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const open = editor.mode !== 'closed';
  return (
    <>
      <Drawer
        open={open}
        onClose={props.onEditorClosed}
        size="min(760px, 96vw)"
        destroyOnHidden
        title={editor.mode === 'edit' ? t('mcpAdmin.editor.editTitle', { name: editor.server.name }) : t('mcpAdmin.editor.createTitle')}
        data-testid="mcp-editor"
      >
        {open ? (
          <ServerEditor
            key={editor.mode === 'edit' ? editor.server.name : 'new'}
            {...(editor.mode === 'edit' ? { server: editor.server } : {})}
            {...(editor.mode === 'create' && editor.initial ? { initial: editor.initial } : {})}
            onCancel={props.onEditorClosed}
            onSaved={(server) => {
              void message.success(t('mcpAdmin.saved', { name: server.name }));
              props.onEditorClosed();
              props.onChanged();
            }}
          />
        ) : null}
      </Drawer>
      <Drawer open={importing} onClose={props.onImportClosed} size="min(900px, 96vw)" destroyOnHidden title={t('mcpAdmin.import.title')} data-testid="mcp-import">
        {importing ? (
          <ImportPanel
            onDone={() => {
              props.onImportClosed();
              props.onChanged();
            }}
          />
        ) : null}
      </Drawer>
    </>
  );
}
