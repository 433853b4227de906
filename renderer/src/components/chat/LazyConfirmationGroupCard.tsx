import { lazy, useEffect, type ComponentProps } from 'react';
import { Spin } from 'antd';
import { PartSuspense } from '../../shell/lazyPart';

// The card (antd's Card pulls in its Tabs, with Segmented and Alert) is not part of what the Chat page loads before it is interactive.
const load = () => import('./ConfirmationGroupCard');
const ConfirmationGroupCard = lazy(() => load().then((module) => ({ default: module.ConfirmationGroupCard })));

/** Fetches the card's code once the page is up, so a tool that asks shows its card at once (and the row's height is the card's from the start). */
export function usePrefetchConfirmationCard(): void {
  useEffect(() => {
    void load();
  }, []);
}

export function LazyConfirmationGroupCard(props: ComponentProps<typeof ConfirmationGroupCard>) {
  return (
    <PartSuspense fallback={<Spin data-testid="confirmation-group-loading" />}>
      <ConfirmationGroupCard {...props} />
    </PartSuspense>
  );
}
