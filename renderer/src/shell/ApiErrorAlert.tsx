import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../api/client';

/** The error state of a view: the host's message, how to fix it, and a way to try again. */
export function ApiErrorAlert({ error, onRetry, title }: { error: ApiError; onRetry?: () => void; title?: string }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      data-testid="api-error"
      title={title ?? error.message}
      description={
        <>
          {title ? <div>{error.message}</div> : null}
          {error.hint ? <div>{t('common.fix', { hint: error.hint })}</div> : null}
          <div style={{ opacity: 0.65, fontSize: 12 }}>{error.code}</div>
        </>
      }
      action={
        onRetry ? (
          <Button size="small" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        ) : undefined
      }
    />
  );
}
