import { Badge, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ServerView } from '../../../../src/shared/hostApi';
import { formatAgo, useNow } from './time';
import '../../i18n/load/servers';

type ServerState = ServerView['state'];

function assertNever(value: never): never {
  throw new Error(`unexpected state ${JSON.stringify(value)}`);
}

/** A server's state as a coloured dot and a word; an error carries its message. */
export function ServerStateBadge({ state, disabled, testId }: { state: ServerState; disabled?: boolean; testId?: string }) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  if (disabled) return <Badge status="default" text={t('servers.state.disabled')} data-testid={testId} />;
  switch (state.kind) {
    case 'stopped':
      return <Badge status="default" text={t('servers.state.stopped')} data-testid={testId} />;
    case 'starting':
      return <Badge status="processing" text={t('servers.state.starting')} data-testid={testId} />;
    case 'running':
      return (
        <Tooltip title={t('servers.state.runningSince', { ago: formatAgo(state.since, i18n.language, now) })}>
          <Badge status="success" text={state.pid ? t('servers.state.runningPid', { pid: state.pid }) : t('servers.state.running')} data-testid={testId} />
        </Tooltip>
      );
    case 'error':
      // One line beside the name (the whole reason is in a tooltip, and in the card's problems with its fix).
      return (
        <span data-testid={testId} className="server-state-error">
          <Badge status="error" text={t('servers.state.error')} />{' '}
          <Typography.Text type="danger" style={{ fontSize: 12, maxWidth: 420 }} ellipsis={{ tooltip: <span style={{ whiteSpace: 'pre-line' }}>{state.message}</span> }}>
            {state.message}
          </Typography.Text>
        </span>
      );
    default:
      return assertNever(state);
  }
}
