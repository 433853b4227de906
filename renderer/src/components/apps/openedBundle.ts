import { useEffect, useRef } from 'react';
import { api, toApiError, type ApiError } from '../../api/client';
import { newJobId } from '../knowledge/uploadFile';
import type { ChosenBundle } from './BundleInstall';

/**
 * A bundle the desktop was asked to open (double-clicked, "Open with", `chatos serve --open`), handed from the shell,
 * which hears of it on any page, to the Apps page's install dialog, which shows it as a dropped file: its preview, or
 * why it was refused. One offer waits until the dialog is there to take it.
 */
export type OpenedOffer = { chosen: ChosenBundle } | { error: ApiError };

let waiting: OpenedOffer | undefined;
const listeners = new Set<() => void>();

/** Takes the bundle the host holds, if one waits; true when there was one (shown or refused). */
export async function takeOpenedBundle(): Promise<boolean> {
  const uploadId = newJobId('bundle');
  try {
    const { opened } = await api.call('plugins.takeOpenedBundle', { uploadId });
    if (!opened) return false;
    waiting = { chosen: { uploadId, fileName: opened.fileName, preview: opened.preview } };
  } catch (error) {
    waiting = { error: toApiError(error) };
  }
  for (const listener of listeners) listener();
  return true;
}

/** Calls `onOffer` with each opened bundle, the one waiting now included. */
export function useOpenedBundle(onOffer: (offer: OpenedOffer) => void): void {
  const latest = useRef(onOffer);
  useEffect(() => {
    latest.current = onOffer;
  });
  useEffect(() => {
    const take = () => {
      if (!waiting) return;
      const offer = waiting;
      waiting = undefined;
      latest.current(offer);
    };
    listeners.add(take);
    take();
    return () => void listeners.delete(take);
  }, []);
}
