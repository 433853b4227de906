import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Writes text to the clipboard; falls back to a hidden textarea where the Clipboard API is not allowed. */
async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
}

export function CopyButton({ text, testId }: { text: string; testId?: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(timer);
  }, [copied]);
  // A plain title, not an antd Tooltip: a long answer has a copy button per code block, and each renders again as the answer grows.
  return (
    <Button
      size="small"
      type="text"
      icon={copied ? <CheckOutlined /> : <CopyOutlined />}
      title={copied ? t('chat.copied') : t('chat.copy')}
      aria-label={t('chat.copy')}
      data-testid={testId}
      data-copied={copied}
      onClick={() => void copyText(text).then(() => setCopied(true))}
    />
  );
}

