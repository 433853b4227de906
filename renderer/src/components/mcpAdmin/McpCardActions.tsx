import { useMcpAdmin } from './McpAdminContext';
import { ServerAdminActions } from './ServerAdminActions';

/** The edit, test, disable and delete buttons on the card of a server of mcp.yaml, once its entry is read. */
export function McpCardActions({ serverName }: { serverName: string }) {
  const entry = useMcpAdmin().entry(serverName);
  return entry ? <ServerAdminActions entry={entry} /> : null;
}
