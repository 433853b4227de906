import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ElicitationRequest } from '../../../../src/shared/elicitation';
import '../../i18n/load/elicitation';

/**
 * Where a server wants the user to go, before anything opens: the domain
 * as the browser will see it (punycode for a non-ASCII name), large, with a
 * warning when it may imitate another; the whole url in small print.
 */
export function UrlQuestion({ request }: { request: Extract<ElicitationRequest, { mode: 'url' }> }) {
  const { t } = useTranslation();
  return (
    <div className="elicitation-url">
      <Typography.Text type="secondary">{t('elicitation.url.goesTo')}</Typography.Text>
      <div className="elicitation-domain" data-testid="elicitation-domain">
        {request.domain}
      </div>
      {request.lookAlike && <Alert type="warning" showIcon title={t('elicitation.url.lookAlike', { domain: request.domain })} data-testid="elicitation-lookalike" />}
      <Typography.Text type="secondary" className="elicitation-full-url" data-testid="elicitation-url">
        {request.url}
      </Typography.Text>
    </div>
  );
}
