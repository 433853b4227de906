import { Alert, Collapse, Space, Tag, Typography, theme } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ToolOutcome } from '../../../src/shared/hostApi';
import { api } from '../api/client';
import '../i18n/load/calls';
import '../i18n/load/playground';

/** Monospace, pre-wrapped text on a subtle background that follows the light/dark theme. */
export function CodeBlock(props: { children: ReactNode; maxHeight?: number; testId?: string; style?: CSSProperties }) {
  const { token } = theme.useToken();
  return (
    <pre
      data-testid={props.testId}
      style={{
        margin: 0,
        padding: '8px 12px',
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-word',
        fontFamily: token.fontFamilyCode,
        fontSize: token.fontSizeSM,
        background: token.colorFillQuaternary,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadius,
        maxHeight: props.maxHeight,
        overflow: 'auto',
        ...props.style,
      }}
    >
      {props.children}
    </pre>
  );
}

export const formatJson = (value: unknown) => JSON.stringify(value, null, 2);

const DECISION_COLOR: Record<ToolOutcome['decision'], string> = { auto: 'default', approved: 'green', declined: 'red', expired: 'orange', withdrawn: 'default' };

/** How a face shows an item the gateway passed as it came (a resource link it can open), or undefined for the JSON. */
type RenderOther = (json: unknown) => ReactNode | undefined;

function ContentItem({ item, renderOther }: { item: ToolOutcome['content'][number]; renderOther: RenderOther | undefined }) {
  const { t } = useTranslation();
  switch (item.type) {
    case 'text':
      return <CodeBlock testId="result-text">{item.text}</CodeBlock>;
    case 'artifact':
      return (
        <figure style={{ margin: 0 }}>
          {item.mimeType.startsWith('image/') ? (
            <img data-testid="result-image" src={api.resolveUrl(item.url)} alt={item.path} style={{ maxWidth: '100%', maxHeight: 480, display: 'block', imageRendering: 'auto' }} />
          ) : (
            <a href={api.resolveUrl(item.url)} target="_blank" rel="noreferrer">
              {t('playground.result.openArtifact', { mimeType: item.mimeType })}
            </a>
          )}
          <figcaption>
            <Typography.Text type="secondary" copyable={{ text: item.path }} style={{ fontSize: 12 }}>
              {item.path}
            </Typography.Text>
          </figcaption>
        </figure>
      );
    case 'other':
      return renderOther?.(item.json) ?? <CodeBlock>{formatJson(item.json)}</CodeBlock>;
  }
}

/**
 * A tool call's outcome as the gateway returned it: the content items in
 * order (text, saved images, anything else as JSON), the structured content,
 * how the confirmation went and how long it took. A call that never ran
 * (declined, or no one answered) says so instead of showing an error.
 */
export function ToolResultView({ outcome, renderOther }: { outcome: ToolOutcome; renderOther?: RenderOther }) {
  const { t } = useTranslation();
  const notRun = outcome.decision === 'declined' || outcome.decision === 'expired' || outcome.decision === 'withdrawn';
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="tool-result">
      <Space wrap>
        <Tag color={DECISION_COLOR[outcome.decision]} data-testid="result-decision">
          {t(`playground.result.decision.${outcome.decision}`)}
        </Tag>
        <Typography.Text type="secondary" data-testid="result-duration">
          {t('playground.result.duration', { ms: Math.round(outcome.durationMs) })}
        </Typography.Text>
      </Space>
      {notRun ? (
        // The tool never ran: say so in words; the text the gateway wrote for the model adds nothing.
        <Alert type="info" showIcon title={t(`calls.notRun.${outcome.decision}`)} data-testid="result-not-run" />
      ) : (
        <>
          {outcome.isError && <Alert type="error" showIcon title={t('playground.result.isError')} data-testid="result-error" />}
          {outcome.content.length === 0 && !outcome.structuredContent && <Typography.Text type="secondary">{t('playground.result.empty')}</Typography.Text>}
          {outcome.content.map((item, i) => (
            <ContentItem key={i} item={item} renderOther={renderOther} />
          ))}
        </>
      )}
      {outcome.structuredContent && (
        <Collapse
          size="small"
          defaultActiveKey={outcome.content.length === 0 ? ['structured'] : []}
          items={[{ key: 'structured', label: t('playground.result.structured'), children: <CodeBlock maxHeight={360}>{formatJson(outcome.structuredContent)}</CodeBlock> }]}
        />
      )}
      {/* The gateway's reminders ask the model to call mcp_release; a person is told what it means for them. */}
      {outcome.reminders.length > 0 && (
        <Typography.Text type="secondary" data-testid="result-lease-note">
          {t('calls.leaseNote')}
        </Typography.Text>
      )}
    </Space>
  );
}
