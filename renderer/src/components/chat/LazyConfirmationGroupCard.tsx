import { lazy, Suspense, type ComponentProps } from 'react';
import { Spin } from 'antd';

// The card (antd's Card pulls in its Tabs, with Segmented and Alert) loads only when a tool first asks, so opening the Chat page does not pay for it.
const ConfirmationGroupCard = lazy(() => import('./ConfirmationGroupCard').then((module) => ({ default: module.ConfirmationGroupCard })));

export function LazyConfirmationGroupCard(props: ComponentProps<typeof ConfirmationGroupCard>) {
  return (
    <Suspense fallback={<Spin data-testid="confirmation-group-loading" />}>
      <ConfirmationGroupCard {...props} />
    </Suspense>
  );
}
