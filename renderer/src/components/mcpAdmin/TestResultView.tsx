import { Alert, Collapse, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { McpTestResult } from '../../../../src/shared/mcpAdmin';
import '../../i18n/load/mcpAdminEditor';

/** "Test connection": the tools the server listed, or exactly why it did not start (its code, the reason, the fix, its stderr). */
export function TestResultView({ result, testId = 'mcp-test-result' }: { result: McpTestResult; testId?: string }) {
  const { t } = useTranslation();
  if (result.ok) {
    return (
      <Alert
        type="success"
        showIcon
        data-testid={testId}
        data-ok="true"
        title={t('mcpAdmin.test.ok', { ms: result.ms, count: result.tools.length })}
        description={
          <ul className="mcp-test-tools">
            {result.tools.map((tool) => (
              <li key={tool.name}>
                <Typography.Text code>{tool.name}</Typography.Text> <Typography.Text type="secondary">{tool.description.split('\n')[0]}</Typography.Text>
              </li>
            ))}
          </ul>
        }
      />
    );
  }
  const reason = result.reason ? t(`mcpAdmin.reason.${result.reason}`, { defaultValue: result.reason }) : t(`mcpAdmin.code.${result.code}`, { defaultValue: result.code });
  return (
    <Alert
      type="error"
      showIcon
      data-testid={testId}
      data-ok="false"
      data-code={result.code}
      data-reason={result.reason ?? ''}
      title={reason}
      description={
        <>
          <div>{result.message}</div>
          {result.hint ? <div>{t('common.fix', { hint: result.hint })}</div> : null}
          {(result.fields ?? []).map((f) => (
            <div key={f.path}>
              <Typography.Text code>{f.path}</Typography.Text> {f.message}
            </div>
          ))}
          {result.stderr.length ? (
            <Collapse ghost size="small" items={[{ key: 'stderr', label: t('mcpAdmin.test.stderr'), children: <pre className="mcp-test-stderr">{result.stderr.join('\n')}</pre> }]} />
          ) : null}
          <div style={{ opacity: 0.65, fontSize: 12 }}>
            {result.code}
            {result.reason ? ` · ${result.reason}` : ''}
          </div>
        </>
      }
    />
  );
}
