import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import '../../i18n/load/chat';

/** Arguments as text: a JSON object as its entries, anything else (or text that is no JSON) as it came. */
function parseArgs(args: string | Record<string, unknown>): { entries: [string, unknown][] } | { raw: string } {
  if (typeof args !== 'string') return { entries: Object.entries(args) };
  try {
    const value: unknown = JSON.parse(args || '{}');
    if (value && typeof value === 'object' && !Array.isArray(value)) return { entries: Object.entries(value as Record<string, unknown>) };
  } catch {
    // not JSON: shown as written
  }
  return { raw: args };
}

function ArgValue({ value }: { value: unknown }) {
  if (typeof value === 'string') return <span className="args-text">{value}</span>;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return <Typography.Text code>{String(value)}</Typography.Text>;
  return <pre className="args-json">{JSON.stringify(value, null, 2)}</pre>;
}

/**
 * A tool call's arguments as a person reads them: one row per argument,
 * its name and its value (text as text, numbers and flags as code, nested
 * values as indented JSON), not one line of JSON.
 */
export function ArgsList({ args, testId }: { args: string | Record<string, unknown>; testId?: string }) {
  const { t } = useTranslation();
  const parsed = parseArgs(args);
  if ('raw' in parsed)
    return (
      <pre className="args-json" data-testid={testId}>
        {parsed.raw}
      </pre>
    );
  if (parsed.entries.length === 0)
    return (
      <Typography.Text type="secondary" data-testid={testId}>
        {t('chat.tool.noArgs')}
      </Typography.Text>
    );
  return (
    <dl className="args-list" data-testid={testId}>
      {parsed.entries.map(([name, value]) => (
        <div key={name} className="args-row">
          <dt>{name}</dt>
          <dd>
            <ArgValue value={value} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
