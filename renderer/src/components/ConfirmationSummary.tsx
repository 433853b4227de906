import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ToolConfirmationRequest } from '../../../src/shared/confirmation';
import '../i18n/load/confirmation';

/**
 * What a confirmation asks, in words: the sentence written for this tool
 * when there is one, else "Run <tool> on <server>" in the window's language
 * (the host's generic summary carries the arguments as JSON, which the card
 * lists instead), then what the tool says it does.
 */
export function ConfirmationSummary({ request, className }: { request: ToolConfirmationRequest; className?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Typography.Text strong className={className} data-testid="confirm-summary">
        {request.customSummary ? request.summary : t('confirmation.runTool', { tool: request.toolName, server: request.serverName })}
      </Typography.Text>
      {request.description && (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }} ellipsis={{ rows: 3, expandable: true }} data-testid="confirm-description">
          {request.description}
        </Typography.Paragraph>
      )}
    </>
  );
}
