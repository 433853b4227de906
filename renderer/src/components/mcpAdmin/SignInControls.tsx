import { LoginOutlined, LogoutOutlined } from '@ant-design/icons';
import { Button, type ButtonProps, Space, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { McpServerEntryView } from '../../../../src/shared/mcpAdmin';
import { useMcpAdmin } from './McpAdminContext';
import { useSignIn } from './useSignIn';
import '../../i18n/load/signIn';

/**
 * A remote server's sign-in on its card: "Sign-in needed" with Sign in,
 * "Signed in as … (expires …)" with Sign out, "Sign-in needed again"; while
 * the browser is open, a Cancel. Nothing for a server that never asked.
 */
export function SignInControls({ entry, size = 'middle' }: { entry: McpServerEntryView; size?: ButtonProps['size'] }) {
  const { t, i18n } = useTranslation();
  const admin = useMcpAdmin();
  const { busy, signIn, cancel, signOut } = useSignIn(() => void admin.entries.reload());
  const state = entry.signIn;
  if (!state || state.kind === 'none') return null;
  const name = entry.name;
  const expires = state.kind === 'signed-in' && state.expiresAt !== undefined ? new Date(state.expiresAt).toLocaleString(i18n.language) : undefined;

  const tag =
    state.kind === 'signed-in' ? (
      <Tag color="success" data-testid={`signin-state-${name}`}>
        {state.account ? t('signIn.as', { account: state.account }) : t('signIn.signedIn')}
        {expires ? ` ${t(state.refreshable ? 'signIn.expiresRenewed' : 'signIn.expires', { when: expires })}` : ''}
      </Tag>
    ) : state.kind === 'needed' ? (
      <Tag color="warning" data-testid={`signin-state-${name}`}>
        {t('signIn.needed')}
      </Tag>
    ) : (
      <Tooltip title={state.reason}>
        <Tag color="error" data-testid={`signin-state-${name}`}>
          {t('signIn.again')}
        </Tag>
      </Tooltip>
    );

  return (
    <Space size={4} wrap>
      {tag}
      {state.kind !== 'signed-in' && (
        <Button size={size} type="primary" icon={<LoginOutlined />} loading={busy === 'signIn'} onClick={() => void signIn(name)} data-testid={`mcp-signin-${name}`}>
          {busy === 'signIn' ? t('signIn.waiting') : t('signIn.button')}
        </Button>
      )}
      {busy === 'signIn' && (
        <Button size={size} onClick={() => cancel(name)} data-testid={`mcp-signin-cancel-${name}`}>
          {t('signIn.cancel')}
        </Button>
      )}
      {state.kind !== 'needed' && busy !== 'signIn' && (
        <Button size={size} icon={<LogoutOutlined />} loading={busy === 'signOut'} onClick={() => void signOut(name)} data-testid={`mcp-signout-${name}`}>
          {t('signIn.signOut')}
        </Button>
      )}
    </Space>
  );
}
