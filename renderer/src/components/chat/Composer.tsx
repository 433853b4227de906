import { SendOutlined, StopOutlined } from '@ant-design/icons';
import { Button, Input, Typography } from 'antd';
import { memo, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Where the user writes. Enter sends, Shift+Enter starts a new line (and
 * Enter that ends an IME composition only ends it). While the agent answers,
 * Send becomes Stop. The text stays when sending fails.
 */
export const Composer = memo(function Composer(props: { running: boolean; disabled?: boolean; onSend(text: string): Promise<boolean>; onStop?(): void; stopping?: boolean }) {
  const { running, disabled, onSend, onStop, stopping } = props;
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);

  const send = async () => {
    const value = text.trim();
    if (!value || sending || running || disabled) return;
    setSending(true);
    try {
      if (await onSend(value)) setText('');
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void send();
  };

  return (
    <div className="composer" data-testid="chat-composer">
      <Input.TextArea
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        autoSize={{ minRows: 2, maxRows: 10 }}
        placeholder={t('chat.composer.placeholder')}
        disabled={disabled}
        data-testid="chat-input"
        aria-label={t('chat.composer.label')}
      />
      <div className="composer-bar">
        <Typography.Text type="secondary" className="composer-hint">
          {t('chat.composer.hint')}
        </Typography.Text>
        {running ? (
          <Button danger icon={<StopOutlined />} loading={stopping} onClick={onStop} data-testid="chat-stop">
            {t('chat.stop')}
          </Button>
        ) : (
          <Button type="primary" icon={<SendOutlined />} loading={sending} disabled={disabled || !text.trim()} onClick={() => void send()} data-testid="chat-send">
            {t('chat.send')}
          </Button>
        )}
      </div>
    </div>
  );
});
