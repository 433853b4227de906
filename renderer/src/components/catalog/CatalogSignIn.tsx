import { LoginOutlined } from '@ant-design/icons';
import { Alert, Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { McpServerEntryView } from '../../../../src/shared/mcpAdmin';
import { useSignIn } from '../mcpAdmin/useSignIn';
import '../../i18n/load/catalog';

/**
 * A remote just added from the catalog that asked for sign-in when it was added: signed in here through the MCP
 * servers' own sign-in (mcpServers.signIn, the page opened in a new tab or the system browser), or later from its
 * card. A click of its own, so the tab the sign-in needs opens in it.
 */
export function CatalogSignIn({ server, onDone }: { server: McpServerEntryView; onDone: () => void }) {
  const { t } = useTranslation();
  const { busy, signIn } = useSignIn((signed) => {
    if (signed.signIn?.kind === 'signed-in') onDone();
  });
  const scope = server.signIn?.kind === 'needed' ? server.signIn.scope : undefined;
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="catalog-signin-needed"
      title={t('catalog.signInNeeded', { name: server.name })}
      description={scope ? t('catalog.signInScope', { scope }) : undefined}
      action={
        <Space orientation="vertical">
          <Button type="primary" icon={<LoginOutlined />} loading={busy === 'signIn'} onClick={() => void signIn(server.name)} data-testid="catalog-signin">
            {t('catalog.signIn')}
          </Button>
          <Button onClick={onDone} data-testid="catalog-signin-later">
            {t('catalog.signInLater')}
          </Button>
        </Space>
      }
    />
  );
}
