import { lazy, Suspense, type ComponentProps } from 'react';
import { Spin } from 'antd';

// The card (and the result viewer it uses) loads only when a confirmation is actually pending,
// so the first screen does not pay for it.
const ConfirmationCard = lazy(() => import('../components/ConfirmationCard').then((module) => ({ default: module.ConfirmationCard })));

export function LazyConfirmationCard(props: ComponentProps<typeof ConfirmationCard>) {
  return (
    <Suspense fallback={<Spin />}>
      <ConfirmationCard {...props} />
    </Suspense>
  );
}
