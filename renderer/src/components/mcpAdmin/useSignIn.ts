import { App as AntApp } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpServerEntryView } from '../../../../src/shared/mcpAdmin';
import { api, errorLine } from '../../api/client';
import '../../i18n/load/signIn';

/**
 * Signing in to a remote server from the window (its card, or the sign-in
 * card of a conversation). The host opens the sign-in page: the desktop app
 * in the system browser; `chatos serve` asks this page (auth.openUrl), which
 * opens it in a new tab. That tab is opened in the click itself, so no
 * pop-up blocker stops it, and cut off from this page (no opener) before it
 * is sent to the sign-in page.
 */
export function useSignIn(onDone?: (server: McpServerEntryView) => void) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [busy, setBusy] = useState<'signIn' | 'signOut'>();

  /** `first`: what must happen before (the add form saves the server); false or a throw: no sign-in, the tab closes. */
  const signIn = async (name: string, first?: () => Promise<boolean>) => {
    const tab = api.face === 'serve' ? window.open('about:blank', '_blank') : null;
    if (tab) tab.opener = null;
    if (first && !(await first().catch(() => false))) {
      if (tab && !tab.closed) tab.close();
      return;
    }
    const off = api.on('auth.openUrl', (event) => {
      if (event.name !== name) return;
      if (tab && !tab.closed) tab.location.href = event.url;
      else window.open(event.url, '_blank', 'noopener,noreferrer');
    });
    setBusy('signIn');
    try {
      const { server } = await api.call('mcpServers.signIn', { name });
      void message.success(t('signIn.done', { name }));
      onDone?.(server);
    } catch (e) {
      void message.error(errorLine(e));
      if (tab && !tab.closed) tab.close();
    } finally {
      off();
      setBusy(undefined);
    }
  };

  const cancel = (name: string) => void api.call('mcpServers.cancelSignIn', { name }).catch(() => undefined);

  const signOut = async (name: string) => {
    setBusy('signOut');
    try {
      const { server } = await api.call('mcpServers.signOut', { name });
      void message.success(t('signIn.signedOut', { name }));
      onDone?.(server);
    } catch (e) {
      void message.error(errorLine(e));
    } finally {
      setBusy(undefined);
    }
  };

  return { busy, signIn, cancel, signOut };
}
