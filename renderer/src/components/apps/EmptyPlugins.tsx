import { Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import '../../i18n/load/apps';

/** Where plugins go: the user's plugin folder under the data home, with the command that scaffolds one. */
export function userPluginsDir(home: string | undefined): string {
  if (!home) return '$CHATOS_HOME/chatos/ui_apps/plugins/';
  const sep = home.includes('\\') && !home.includes('/') ? '\\' : '/';
  return [home.replace(/[\\/]+$/, ''), 'chatos', 'ui_apps', 'plugins', ''].join(sep);
}

/** Where to put plugins and how to make one; `compact` drops the picture and the "no plugins" line (for a hint below a list). */
export function EmptyPlugins({ home, compact = false }: { home: string | undefined; compact?: boolean }) {
  const { t } = useTranslation();
  const dir = userPluginsDir(home);
  const init = `chatos init ${dir}my-app --id com.example.my-app`;
  const steps = (
    <>
      <Typography.Paragraph style={compact ? { marginBottom: 4 } : undefined}>
        {t('apps.empty.where')}{' '}
        <Typography.Text code copyable>
          {dir}
        </Typography.Text>
      </Typography.Paragraph>
      <Typography.Paragraph style={compact ? { marginBottom: 4 } : undefined}>
        {t('apps.empty.init')}{' '}
        <Typography.Text code copyable>
          {init}
        </Typography.Text>
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary" style={compact ? { marginBottom: 0 } : undefined}>
        {t('apps.empty.then')}
      </Typography.Paragraph>
    </>
  );
  if (compact) return <div data-testid="apps-add-hint">{steps}</div>;
  return (
    <Empty
      data-testid="apps-empty"
      description={
        <div className="apps-empty">
          <Typography.Paragraph strong>{t('apps.empty.title')}</Typography.Paragraph>
          {steps}
        </div>
      }
    />
  );
}
