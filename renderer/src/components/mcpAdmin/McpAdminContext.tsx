import { Spin } from 'antd';
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import type { McpServerEntryView } from '../../../../src/shared/mcpAdmin';
import { useApi, type ApiState } from '../../api/hooks';
import { lazyPart, useOpenedOnce } from '../../shell/lazyPart';
import type { EditorState } from './McpAdminDrawers';
import type { ServerDraft } from './serverDraft';

// The drawers and their forms load when one is first opened: the list is what the page shows first.
const McpAdminDrawers = lazyPart(() => import('./McpAdminDrawers').then((m) => m.default), <Spin fullscreen />);

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
  const drawersShown = useOpenedOnce(editor.mode !== 'closed' || importing);
  return (
    <McpAdminContext.Provider value={admin}>
      {children}
      {drawersShown && (
        <McpAdminDrawers
          editor={editor}
          importing={importing}
          onEditorClosed={() => setEditor({ mode: 'closed' })}
          onImportClosed={() => setImporting(false)}
          onChanged={() => void entries.reload()}
        />
      )}
    </McpAdminContext.Provider>
  );
}
