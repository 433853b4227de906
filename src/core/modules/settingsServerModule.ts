import type { McpServer } from '@modelcontextprotocol/server';
import type { ServerDefinition } from '../../shared/mcp.js';
import type { ToolConfirmationService } from '../confirmation/toolConfirmationService.js';
import { createSettingsContext, type SettingsContextDeps } from '../settingsServer/settingsContext.js';
import { createSettingsServer, registerSettingsConfirmables, SETTINGS_SERVER_NAME, settingsServerDefinition } from '../settingsServer/settingsServer.js';
import type { SettingsContext } from '../settingsServer/types.js';

export interface SettingsServerModule {
  /** The server as the MCP runtime loads it: its definition, and the factory of its in-process instances. */
  readonly definition: ServerDefinition;
  readonly inProcess: ReadonlyMap<string, () => McpServer>;
  /** Gives the server the services it drives, and registers its confirm tools; before this, starting it fails. */
  bind(deps: SettingsContextDeps, confirmations: Pick<ToolConfirmationService, 'registerMultiple'>): void;
}

/**
 * The built-in settings server: a face inside the core (it drives agents,
 * the registry, knowledge and the runtime as the HostApi does), served in
 * process. The runtime needs its factory before the services it drives
 * exist, so the context is bound once they do.
 */
export function settingsServerModule(): SettingsServerModule {
  let context: SettingsContext | undefined;
  const create = () => {
    if (!context) throw new Error('the settings server is not bound to the host yet');
    return createSettingsServer(context);
  };
  return {
    definition: settingsServerDefinition(),
    inProcess: new Map([[SETTINGS_SERVER_NAME, create]]),
    bind(deps, confirmations) {
      context = createSettingsContext(deps);
      registerSettingsConfirmables(confirmations);
    },
  };
}
