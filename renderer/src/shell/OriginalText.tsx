import { Button, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HostText } from '../i18n/hostText';

/** The host's own words behind a translated message: rendered only when asked for. */
export function OriginalText({ text }: { text: HostText }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!text.original) return null;
  if (!open)
    return (
      <Button type="link" size="small" style={{ paddingInline: 0 }} onClick={() => setOpen(true)} data-testid="host-original">
        {t('hostError.original')}
      </Button>
    );
  return (
    <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 0 }}>
      {text.original.message}
      {text.original.hint ? ` — ${text.original.hint}` : ''}
    </Typography.Paragraph>
  );
}
