import { useEffect, useState } from 'react';
import { i18n } from './index';

/** The one load of the problem codes' texts, shared by every part that shows a code. */
let loading: Promise<unknown> | undefined;

/**
 * Loads the texts of the problems' codes (i18n/lazy/problemCodes.ts) the first time a part of the window shows a coded
 * host message (`needed`) in Chinese (English shows the host's own words), and re-renders that part with them. Called
 * by every part that says a code with hostText (a problem list, an error alert, a refused attachment), on any page:
 * the texts are not in the first page, nor in any page's own bundle (each stays within its JS budget), and arrive
 * only when a code is there to say.
 */
export function useProblemTexts(needed = true): void {
  const [, loaded] = useState(false);
  const zh = i18n.language === 'zh';
  useEffect(() => {
    if (!zh || !needed) return;
    let live = true;
    loading ??= import('./load/problemCodes');
    void loading.then(() => live && loaded(true));
    return () => {
      live = false;
    };
  }, [zh, needed]);
}
