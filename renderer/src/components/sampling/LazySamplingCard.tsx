import { lazy, Suspense, type ComponentProps } from 'react';
import { Spin } from 'antd';

// The card loads only when a server actually asks, so the first screen does not pay for it.
const SamplingCard = lazy(() => import('./SamplingCard').then((module) => ({ default: module.SamplingCard })));

/** Keyed by the request's step by its owner: a new step (the completion) starts with its own state and clock. */
export function LazySamplingCard(props: ComponentProps<typeof SamplingCard>) {
  return (
    <Suspense fallback={<Spin />}>
      <SamplingCard {...props} />
    </Suspense>
  );
}
