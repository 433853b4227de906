import { useState } from 'react';
import { App as AntApp } from 'antd';
import { errorLine } from '../api/client';

/**
 * A button's action against the host: busy while it runs, its success
 * message (what `action` returns) or the host's error with its fix as a
 * toast, then `onDone`. One place, so every button reports alike.
 */
export function useAction(onDone: () => void = () => {}) {
  const { message } = AntApp.useApp();
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<string>) => {
    setBusy(true);
    try {
      void message.success(await action());
      onDone();
    } catch (error) {
      void message.error(errorLine(error));
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}
