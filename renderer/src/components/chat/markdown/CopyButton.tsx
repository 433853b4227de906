import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { useEffect, useState } from 'react';
import { IconButton } from '../IconButton';
import { useRowWords } from '../rowContext';
import '../../../i18n/load/chat';

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
  const { word } = useRowWords();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(timer);
  }, [copied]);
  // A plain button with a title: a long answer has a copy button per code block, each rendered again as the answer grows and mounted again as it scrolls into view.
  return (
    <IconButton
      icon={copied ? <CheckOutlined /> : <CopyOutlined />}
      label={word('chat.copy')}
      title={word(copied ? 'chat.copied' : 'chat.copy')}
      testId={testId}
      data={{ 'data-copied': copied }}
      onClick={() => void copyText(text).then(() => setCopied(true))}
    />
  );
}
