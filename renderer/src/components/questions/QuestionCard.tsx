import { Spin } from 'antd';
import { lazy, type ComponentType } from 'react';
import type { Question, QuestionKind, QuestionOf } from '../../../../src/shared/question';
import { PartSuspense } from '../../shell/lazyPart';

type Body<K extends QuestionKind> = ComponentType<{ request: QuestionOf<K>['request']; onAnswered?: () => void }>;

// Each kind's body loads only when a question of that kind is actually asked, so the first screen does not pay for it.
const BODIES: { [K in QuestionKind]: Body<K> } = {
  toolConfirmation: lazy(() => import('../ConfirmationCard').then((module) => ({ default: module.ConfirmationCard }))),
  elicitation: lazy(() => import('../elicitation/ElicitationCard').then((module) => ({ default: module.ElicitationCard }))),
  sampling: lazy(() => import('../sampling/SamplingCard').then((module) => ({ default: module.SamplingCard }))),
};

/**
 * One question the host asks the person (docs/rules/questions.md), whatever
 * its kind: the kind's body, loaded when first needed. A sampling request's
 * body is keyed by its step: the completion starts with its own state and clock.
 */
export function QuestionCard({ question, onAnswered }: { question: Question; onAnswered?: () => void }) {
  const Body = BODIES[question.kind] as Body<QuestionKind>;
  const step = question.kind === 'sampling' ? `-${question.request.stage}` : '';
  return (
    <PartSuspense fallback={<Spin />}>
      <Body key={`${question.request.id}${step}`} request={question.request as never} {...(onAnswered ? { onAnswered } : {})} />
    </PartSuspense>
  );
}
