import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PluginUpdate } from '../../../../src/shared/pluginUpdate';
import '../../i18n/load/apps';

/** What an update in place changes: files, and what runs before (-) and after (+); its grants stay, its trust must be given again. */
export function UpdateDiff({ update }: { update: PluginUpdate }) {
  const { t } = useTranslation();
  const files = update.files;
  return (
    <Alert
      style={{ marginTop: 12 }}
      type="warning"
      showIcon
      data-testid="install-update"
      title={t('apps.install.updateTitle', { id: update.pluginId })}
      description={
        <>
          <Typography.Paragraph>{t('apps.install.updateExplain')}</Typography.Paragraph>
          {files ? (
            <Typography.Paragraph type="secondary">{t('apps.install.updateFiles', { added: files.added.length, removed: files.removed.length, modified: files.modified.length })}</Typography.Paragraph>
          ) : null}
          <Typography.Text strong>{t(update.runPlanChanged ? 'apps.install.planChanged' : 'apps.install.planSame')}</Typography.Text>
          <pre className="plan-diff" data-testid="install-update-diff">
            {update.lines.map((line, index) => (
              <div key={index} className={line.op === '+' ? 'plan-added' : line.op === '-' ? 'plan-removed' : undefined}>
                {`${line.op}${line.text.slice(1)}`}
              </div>
            ))}
          </pre>
        </>
      }
    />
  );
}
