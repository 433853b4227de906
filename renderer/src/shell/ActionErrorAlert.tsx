import type { CSSProperties } from 'react';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../api/client';

/** What a failed action (save, install, link…) tells the user: the host's message and how to fix it. */
export function ActionErrorAlert({ error, testId, style }: { error: ApiError; testId: string; style?: CSSProperties }) {
  const { t } = useTranslation();
  return <Alert type="error" showIcon style={style} title={error.message} description={error.hint ? t('common.fix', { hint: error.hint }) : undefined} data-testid={testId} />;
}
