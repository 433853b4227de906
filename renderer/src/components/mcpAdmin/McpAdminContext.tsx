import { App as AntApp, Drawer, Skeleton } from 'antd';
import { createContext, lazy, Suspense, useContext, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpServerEntryView } from '../../../../src/shared/mcpAdmin';
import { useApi, type ApiState } from '../../api/hooks';
import type { ServerDraft } from './serverDraft';
import '../../i18n/load/mcpAdmin';

// The forms load when first opened: the list is what the page shows first.
const ServerEditor = lazy(() => import('./ServerEditor').then((m) => ({ default: m.ServerEditor })));
const ImportPanel = lazy(() => import('./ImportPanel').then((m) => ({ default: m.ImportPanel })));

type EditorState = { mode: 'closed' } | { mode: 'create'; initial?: ServerDraft } | { mode: 'edit'; server: McpServerEntryView };

interface McpAdmin {
  /** mcp.yaml's servers as the core reads them (refreshed on every reload). */
  entries: ApiState<'mcpServers.list'>;
  entry(name: string): McpServerEntryView | undefined;
  create(initial?: ServerDraft): void;
  edit(server: McpServerEntryView): void;
  openImport(): void;
}

const McpAdminContext = createContext<McpAdmin | undefined>(undefined);

export function useMcpAdmin(): McpAdmin {
  const admin = useContext(McpAdminContext);
  if (!admin) throw new Error('useMcpAdmin outside McpAdminProvider');
  return admin;
}

/**
 * The MCP servers page's editing of mcp.yaml (docs/rules/settings-server.md#categories: add, import,
 * edit, delete): the file's servers, and the add/edit and import drawers
 * every card and button of the page opens.
 */
export function McpAdminProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const entries = useApi('mcpServers.list', {}, { refreshOn: ['mcp.reloaded'] });
  const [editor, setEditor] = useState<EditorState>({ mode: 'closed' });
  const [importing, setImporting] = useState(false);
  const admin = useMemo<McpAdmin>(
    () => ({
      entries,
      entry: (name) => entries.data?.servers.find((s) => s.name === name),
      create: (initial) => setEditor(initial ? { mode: 'create', initial } : { mode: 'create' }),
      edit: (server) => setEditor({ mode: 'edit', server }),
      openImport: () => setImporting(true),
    }),
    [entries],
  );
  const open = editor.mode !== 'closed';
  return (
    <McpAdminContext.Provider value={admin}>
      {children}
      <Drawer
        open={open}
        onClose={() => setEditor({ mode: 'closed' })}
        size="min(760px, 96vw)"
        destroyOnHidden
        title={editor.mode === 'edit' ? t('mcpAdmin.editor.editTitle', { name: editor.server.name }) : t('mcpAdmin.editor.createTitle')}
        data-testid="mcp-editor"
      >
        {open ? (
          <Suspense fallback={<Skeleton active paragraph={{ rows: 8 }} />}>
            <ServerEditor
              key={editor.mode === 'edit' ? editor.server.name : 'new'}
              {...(editor.mode === 'edit' ? { server: editor.server } : {})}
              {...(editor.mode === 'create' && editor.initial ? { initial: editor.initial } : {})}
              onCancel={() => setEditor({ mode: 'closed' })}
              onSaved={(server) => {
                void message.success(t('mcpAdmin.saved', { name: server.name }));
                setEditor({ mode: 'closed' });
                void entries.reload();
              }}
            />
          </Suspense>
        ) : null}
      </Drawer>
      <Drawer open={importing} onClose={() => setImporting(false)} size="min(900px, 96vw)" destroyOnHidden title={t('mcpAdmin.import.title')} data-testid="mcp-import">
        {importing ? (
          <Suspense fallback={<Skeleton active paragraph={{ rows: 8 }} />}>
            <ImportPanel
              onDone={() => {
                setImporting(false);
                void entries.reload();
              }}
            />
          </Suspense>
        ) : null}
      </Drawer>
    </McpAdminContext.Provider>
  );
}
