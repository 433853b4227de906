import { Button, Card, List, Skeleton, Tag, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { CheckStatus, DiagnosticCheck } from '../../../src/shared/diagnostics';
import { useApi } from '../api/hooks';
import { ApiErrorAlert } from '../shell/ApiErrorAlert';
import '../i18n/load/diagnostics';
import '../i18n/load/diagnosticsSaid';

const STATUS_COLOR: Record<CheckStatus, string> = { ok: 'success', warn: 'warning', fail: 'error' };

/** `server:<id>` checks share one title, with the server's id after it. */
/** A check's summary or fix in the window's language, from the keys the host sent; the host's English where it sent none. */
function saidOf(check: DiagnosticCheck, part: 'summary' | 'fix', t: (key: string, values?: Record<string, string>) => string): string {
  const key = check.words?.[part];
  if (!key) return check[part] ?? '';
  const full = `diagnostics.${part === 'summary' ? 'said' : 'fixSaid'}.${key}`;
  const text = t(full, check.words?.params);
  return text === full ? (check[part] ?? '') : text;
}

function titleOf(check: DiagnosticCheck, t: (key: string, values?: Record<string, string>) => string): string {
  if (check.id.startsWith('server:')) return t('diagnostics.check.server', { id: check.id.slice('server:'.length) });
  return t(`diagnostics.check.${check.id}`, { defaultValue: check.id });
}

/** What this machine gives ChatOS (the doctor's checks, run in the app's own process), each with its fix. */
export default function DiagnosticsPage() {
  const { t } = useTranslation();
  const report = useApi('diagnostics.run', {}, { refreshOn: ['mcp.reloaded', 'plugins.changed'] });
  const checks = report.data?.checks ?? [];
  const count = (status: CheckStatus) => checks.filter((check) => check.status === status).length;

  return (
    <div data-testid="page-diagnostics" className="page-stack">
      <div className="page-toolbar">
        <Typography.Text type="secondary" className="page-toolbar-text">
          {t('diagnostics.intro')}
        </Typography.Text>
        <Button icon={<ReloadOutlined />} onClick={() => void report.reload()} loading={report.loading} data-testid="diagnostics-rerun">
          {t('diagnostics.rerun')}
        </Button>
      </div>
      {report.error ? <ApiErrorAlert error={report.error} onRetry={() => void report.reload()} /> : null}
      {!report.data && report.loading ? <Skeleton active paragraph={{ rows: 8 }} /> : null}
      {report.data ? (
        <Card
          size="small"
          data-testid="diagnostics-summary"
          title={t(report.data.ok ? 'diagnostics.allOk' : 'diagnostics.someFail', { ok: String(count('ok')), warn: String(count('warn')), fail: String(count('fail')) })}
        >
          <List
            dataSource={checks}
            rowKey="id"
            renderItem={(check) => (
              <List.Item data-testid={`diagnostic-${check.id}`} data-status={check.status}>
                <List.Item.Meta
                  avatar={<Tag color={STATUS_COLOR[check.status]}>{t(`diagnostics.status.${check.status}`)}</Tag>}
                  title={titleOf(check, t)}
                  description={
                    <>
                      <Typography.Text data-testid="diagnostic-summary">{saidOf(check, 'summary', t)}</Typography.Text>
                      {check.fix ? (
                        <div>
                          <Typography.Text type="secondary">{t('diagnostics.fix')} </Typography.Text>
                          <Typography.Text data-testid="diagnostic-fix">{saidOf(check, 'fix', t)}</Typography.Text>
                        </div>
                      ) : null}
                    </>
                  }
                />
              </List.Item>
            )}
          />
        </Card>
      ) : null}
    </div>
  );
}
