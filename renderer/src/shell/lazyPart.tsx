import { Skeleton } from 'antd';
import { lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { usePageLoads } from './pageReady';

/**
 * Shown while a part's code loads. The page is not ready meanwhile
 * (pageReady.tsx): a part the page shows at once is as much the page as
 * its queries. The hold is let go a microtask after the part replaced it,
 * so the part's own queries have begun by then and the mark never shows
 * between the two.
 */
function PartLoading({ fallback }: { fallback: ReactNode }) {
  const loads = usePageLoads();
  useEffect(() => {
    const loaded = loads?.begin();
    return () => {
      if (loaded) queueMicrotask(loaded);
    };
  }, [loads]);
  return fallback;
}

/**
 * React's Suspense for what a page shows from a chunk of its own: the page
 * is not ready while the fallback stands (a part loaded after the page was
 * marked ready would begin its queries then and take the mark away again).
 * Every Suspense inside a page is this one.
 */
export function PartSuspense({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  return <Suspense fallback={<PartLoading fallback={fallback} />}>{children}</Suspense>;
}

/**
 * A part of a page in a chunk of its own (React.lazy): a drawer, a form,
 * a result viewer or a tab the page does not show before a click, so the
 * page's first load (scripts/bundleBudget.ts, docs/contributing/layering.md#js-budget)
 * does not carry it. A skeleton (or `fallback`) stands where it will be.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode = <Skeleton active />): ComponentType<P> {
  const Part = lazy(() => load().then((component) => ({ default: component })));
  function LazyPart(props: P) {
    return (
      <PartSuspense fallback={fallback}>
        <Part {...props} />
      </PartSuspense>
    );
  }
  return LazyPart;
}

/**
 * True from the first time `open` is on: a lazy drawer is mounted then
 * (its code loads with that first open) and stays mounted, so closing it
 * animates as a drawer does.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
