import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../api/client';
import { hostText } from '../i18n/hostText';
import { useProblemTexts } from '../i18n/problemTexts';
import { OriginalText } from './OriginalText';

/** The error state of a view: the host's message, how to fix it, and a way to try again. */
export function ApiErrorAlert({ error, onRetry, title }: { error: ApiError; onRetry?: () => void; title?: string }) {
  const { t } = useTranslation();
  useProblemTexts();
  // In Chinese, the code's own text; the host's English stays behind a link.
  const text = hostText(error);
  return (
    <Alert
      type="error"
      showIcon
      data-testid="api-error"
      title={title ?? text.message}
      description={
        <>
          {title ? <div>{text.message}</div> : null}
          {text.hint ? <div>{t('common.fix', { hint: text.hint })}</div> : null}
          <OriginalText text={text} />
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
