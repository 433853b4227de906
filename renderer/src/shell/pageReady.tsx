import { createContext, useContext, useEffect, useLayoutEffect } from 'react';

/**
 * When a page has what it shows: its code and the first answer of each of
 * its queries (useApi), including a query asked anew because the page's
 * route changed. The document then carries the page's route as
 * `data-page-ready` on <html>; a new page takes it away at once. What a
 * person sees as the page settling, said where a program can wait for it:
 * the browser tests wait for it before their first click (test/helpers/browser.ts).
 */
export class PageLoads {
  private pending = 0;
  private route: string | undefined;

  /** A query starts; the function given back says it answered (or went away). */
  begin(): () => void {
    this.pending += 1;
    this.show();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.pending -= 1;
      this.show();
    };
  }

  /** The page's content is committed under `route` (its own queries have begun by then), or gone (undefined). */
  settle(route: string | undefined): void {
    this.route = route;
    this.show();
  }

  private show(): void {
    const html = document.documentElement;
    if (this.route !== undefined && this.pending === 0) html.dataset.pageReady = this.route;
    else delete html.dataset.pageReady;
  }
}

export const PageLoadsContext = createContext<PageLoads | undefined>(undefined);

/** The tracker of the page a component is in; undefined outside a page (the shell's own queries do not count). */
export function usePageLoads(): PageLoads | undefined {
  return useContext(PageLoadsContext);
}

/**
 * Rendered after a page's content: effects run child first, so by the time
 * this one runs, every query the page asked for on this commit has begun.
 * The layout effect takes the old page's mark away before any of them.
 */
export function PageSettled({ loads, route }: { loads: PageLoads; route: string }) {
  useLayoutEffect(() => {
    delete document.documentElement.dataset.pageReady;
  }, [route]);
  useEffect(() => {
    loads.settle(route);
    return () => loads.settle(undefined);
  }, [loads, route]);
  return null;
}
