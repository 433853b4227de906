import { LoginOutlined } from '@ant-design/icons';
import { Alert, Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SignInAsk } from '../../../../src/shared/chat';
import { useSignIn } from '../mcpAdmin/useSignIn';
import '../../i18n/load/signIn';

/**
 * Shown under a call its remote server refused until the user signs in
 * (SIGN_IN_NEEDED): the server, what to do, and a Sign in button (the same
 * sign-in as the server card's), instead of a raw 401.
 */
export function SignInCard({ ask }: { ask: SignInAsk }) {
  const { t } = useTranslation();
  const [done, setDone] = useState(false);
  const { busy, signIn, cancel } = useSignIn(() => setDone(true));
  return (
    <Alert
      type={done ? 'success' : 'warning'}
      showIcon
      className="tool-call-signin"
      data-testid="tool-call-signin"
      message={t('signIn.card.title', { name: ask.name })}
      description={done ? t('signIn.card.done') : t('signIn.card.text')}
      action={
        done ? undefined : (
          <Space direction="vertical" size={4}>
            <Button type="primary" size="small" icon={<LoginOutlined />} loading={busy === 'signIn'} onClick={() => void signIn(ask.name)} data-testid="tool-call-signin-button">
              {busy === 'signIn' ? t('signIn.waiting') : t('signIn.button')}
            </Button>
            {busy === 'signIn' && (
              <Button size="small" onClick={() => cancel(ask.name)}>
                {t('signIn.cancel')}
              </Button>
            )}
          </Space>
        )
      }
    />
  );
}
