import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ImportRun, ImportValueView } from '../../../../src/shared/mcpAdmin';
import '../../i18n/load/mcpAdminEditor';

function ValueText({ value }: { value: ImportValueView }) {
  const { t } = useTranslation();
  switch (value.kind) {
    case 'text':
      return <>{value.shown}</>;
    case 'env':
      return <>{`$${value.name} ${t('mcpAdmin.import.run.fromHost', { name: value.name })}`}</>;
    case 'secret':
      return <>{`•••• ${t('mcpAdmin.import.run.stored')}`}</>;
  }
}

/**
 * Everything an imported server would run with, under its command line in
 * the plan: its folder, every variable its process gets (those that decide
 * which code runs tagged), its headers. The host quotes what the file
 * wrote, control characters escaped, so it reads as written.
 */
export function ImportRunDetails({ run, testId }: { run: ImportRun; testId: string }) {
  const { t } = useTranslation();
  return (
    <div className="mcp-import-run" data-testid={testId} style={{ fontSize: 12 }}>
      {run.command ? <Typography.Text type="secondary">{run.cwd ? t('mcpAdmin.import.run.folder', { folder: run.cwd }) : t('mcpAdmin.import.run.hostFolder')}</Typography.Text> : null}
      {run.env.length ? (
        <div>
          <Typography.Text type="secondary">{t('mcpAdmin.import.run.env')}</Typography.Text>
          {run.env.map(({ name, value, changesCode }) => (
            <div key={name} data-changes-code={changesCode ? 'true' : undefined}>
              <Typography.Text code style={{ wordBreak: 'break-all' }}>
                {name}=<ValueText value={value} />
              </Typography.Text>
              {changesCode ? <Tag color="red">{t('mcpAdmin.import.run.changesCode')}</Tag> : null}
            </div>
          ))}
        </div>
      ) : null}
      {run.command && run.inherited.length ? (
        // The same few dozen names for every server: one line, opened on demand.
        <Typography.Paragraph type="secondary" style={{ margin: 0, fontSize: 12 }} ellipsis={{ rows: 1, expandable: true }}>
          {t('mcpAdmin.import.run.inherited', { names: run.inherited.join(', ') })}
        </Typography.Paragraph>
      ) : null}
      {run.headers.length ? (
        <div>
          <Typography.Text type="secondary">{t('mcpAdmin.import.run.headers')}</Typography.Text>
          {run.headers.map(({ name, value }) => (
            <div key={name}>
              <Typography.Text code style={{ wordBreak: 'break-all' }}>
                {name}: <ValueText value={value} />
              </Typography.Text>
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
}
