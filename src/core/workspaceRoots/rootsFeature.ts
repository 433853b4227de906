import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ClientFeature } from '../mcp/client/clientFeatures.js';
import type { WorkspaceRoots } from './workspaceRoots.js';

/**
 * MCP roots as a client feature (docs/using/agents.md#workspace-roots): the
 * client declares `roots` with list changes; a server's roots/list, once
 * the host's policy lets it ask, is answered the folders of the
 * conversation whose instance asks. A change is sent by WorkspaceRoots.
 */
export function rootsFeature(roots: Pick<WorkspaceRoots, 'answer'>): ClientFeature {
  return {
    name: 'roots',
    capabilities: { roots: { listChanged: true } },
    attach(session) {
      session.onRequest(ListRootsRequestSchema, () => Promise.resolve({ roots: roots.answer(session.definition.id, session.lease) }));
    },
  };
}
