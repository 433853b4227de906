import { useMcpAdmin } from './McpAdminContext';
import { ServerAdminActions } from './ServerAdminActions';
import { SignInControls } from './SignInControls';

/** The sign-in, edit, test, disable and delete buttons on the card of a server of mcp.yaml, once its entry is read. */
export function McpCardActions({ serverName }: { serverName: string }) {
  const entry = useMcpAdmin().entry(serverName);
  return entry ? (
    <>
      <SignInControls entry={entry} />
      <ServerAdminActions entry={entry} />
    </>
  ) : null;
}
