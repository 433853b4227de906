import { lazy, Suspense, type ComponentProps } from 'react';
import { Spin } from 'antd';

// The card (and antd's form inputs) loads only when a server actually asks, so the first screen does not pay for it.
const ElicitationCard = lazy(() => import('./ElicitationCard').then((module) => ({ default: module.ElicitationCard })));

export function LazyElicitationCard(props: ComponentProps<typeof ElicitationCard>) {
  return (
    <Suspense fallback={<Spin />}>
      <ElicitationCard {...props} />
    </Suspense>
  );
}
