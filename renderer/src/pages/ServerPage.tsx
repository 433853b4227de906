import { useParams } from 'react-router';
import { ServerDetail } from '../components/servers/ServerDetail';
import '../i18n/load/servers';

/**
 * One server's own page (`/servers/:serverId`, and an assistant server's
 * `/settings/mcp-assistant/:serverId`): its own chunk, so the list of
 * servers does not carry the detail view and the detail view not the list's
 * editors (docs/contributing/layering.md#js-budget).
 */
export default function ServerPage() {
  const { serverId } = useParams();
  return <div data-testid="page-servers">{serverId ? <ServerDetail serverId={serverId} /> : null}</div>;
}
