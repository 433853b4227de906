import { DEFAULT_MAX_VIEW_BYTES, type ServerDefinition } from '../../../shared/mcp.js';
import { megabytes, type LargeAnswers } from '../../process/overlongAnswer.js';

/**
 * A `ui://` resource read may answer more than one message's bound
 * (docs/rules/mcp-apps.md#size): an MCP App view is a whole page, scripts
 * and fonts inlined (the official PDF viewer is 4.2 MB). Only such a read
 * gets the larger bound, the server's `maxViewBytes`, over stdio and HTTP;
 * every other answer keeps the 4 MiB of one message.
 */

/** A `resources/read` of a `ui://` uri: a view's read. */
export function isViewRead(message: unknown): boolean {
  if (message === null || typeof message !== 'object') return false;
  const { method, params } = message as { method?: unknown; params?: { uri?: unknown } };
  return method === 'resources/read' && typeof params?.uri === 'string' && params.uri.startsWith('ui://');
}

/** The bound of a view from `definition`'s server. */
export const maxViewBytesOf = (definition: Pick<ServerDefinition, 'maxViewBytes'>) => definition.maxViewBytes ?? DEFAULT_MAX_VIEW_BYTES;

/** The setting that raises the bound, as an error names it. */
export const viewBytesSetting = (serverId: string) =>
  serverId.startsWith('chatos::')
    ? `raise "maxViewBytes" of server "${serverId.slice('chatos::'.length)}" in mcp.yaml (docs/reference/mcp-yaml.md), or ask the server's author for a smaller view`
    : "ask the server's author for a smaller view";

/** View reads of `definition`'s server, up to its `maxViewBytes`. */
export function viewReads(definition: Pick<ServerDefinition, 'id' | 'maxViewBytes'>): LargeAnswers {
  return {
    maxBytes: maxViewBytesOf(definition),
    applies: isViewRead,
    tooLargeText: (limit, bytes) =>
      `the MCP App view was ${bytes === undefined ? 'over' : `${megabytes(bytes)}, over`} the ${megabytes(limit)} a view of this server may be; it was not read: ${viewBytesSetting(definition.id)}`,
  };
}
