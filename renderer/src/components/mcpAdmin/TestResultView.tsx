import { Alert, Collapse, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpTestResult } from '../../../../src/shared/mcpAdmin';
import '../../i18n/load/mcpAdminEditor';

/** "Test connection": the tools the server listed, or exactly why it did not start (its code, the reason, the fix, its stderr). */
export function TestResultView({ result, testId = 'mcp-test-result', signIn }: { result: McpTestResult; testId?: string; /** Offered when the server needs sign-in. */ signIn?: ReactNode }) {
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
  // Not a failure: the server answered, and wants the user to sign in first (the add form signs in and saves).
  if (result.code === 'SIGN_IN_NEEDED') {
    return (
      <Alert
        type="info"
        showIcon
        data-testid={testId}
        data-ok="false"
        data-code={result.code}
        title={t('mcpAdmin.test.signInNeeded')}
        description={<div>{t('mcpAdmin.test.signInExplain')}</div>}
        action={signIn}
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
