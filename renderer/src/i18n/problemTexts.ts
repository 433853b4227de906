import { useEffect, useState } from 'react';
import { i18n } from './index';

/**
 * Loads the texts of the problems' codes (i18n/lazy/problemCodes.ts) once the
 * Problems page is shown in Chinese (English shows the host's own words), and
 * re-renders it with them. Not with the first page, nor with the pages that
 * show a few problems beside much else (they stay within their JS budget).
 */
export function useProblemTexts(): void {
  const [, loaded] = useState(false);
  const zh = i18n.language === 'zh';
  useEffect(() => void (zh && import('./load/problemCodes').then(() => loaded(true))), [zh]);
}
