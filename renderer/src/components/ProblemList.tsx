import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Problem, ProblemSeverity } from '../../../src/shared/problems';
import { hostText } from '../i18n/hostText';
import { useProblemTexts } from '../i18n/problemTexts';
import { OriginalText } from '../shell/OriginalText';

export const SEVERITY_COLOR: Record<ProblemSeverity, string> = { error: 'red', warning: 'orange', notice: 'blue' };

function location(problem: Problem): string {
  const position = [problem.line, problem.column].filter((value) => value !== undefined).join(':');
  return position ? `${problem.file}:${position}` : problem.file;
}

/**
 * Problems as the user needs them to fix things: how bad, which file (and
 * line), where in the JSON, what is wrong, and what to do about it.
 */
export function ProblemList({ problems, testId = 'problem-list' }: { problems: Problem[]; testId?: string }) {
  const { t } = useTranslation();
  useProblemTexts(problems.length > 0);
  if (problems.length === 0) return null;
  return (
    <ul className="problem-list" data-testid={testId}>
      {problems.map((problem, index) => {
        const text = hostText(problem);
        return (
          <li key={`${problem.file}|${problem.path}|${problem.code}|${index}`} className="problem-item" data-severity={problem.severity}>
            <div className="problem-head">
              <Tag color={SEVERITY_COLOR[problem.severity]}>{t(`common.severity.${problem.severity}`)}</Tag>
              <Typography.Text className="problem-message">{text.message}</Typography.Text>
              <Typography.Text type="secondary" className="problem-code">
                {problem.code}
              </Typography.Text>
            </div>
            <div className="problem-where">
              <Typography.Text code copyable={{ text: location(problem) }} className="problem-file">
                {location(problem)}
              </Typography.Text>
              {problem.path ? (
                <Typography.Text type="secondary">
                  {t('common.problem.at')} <Typography.Text code>{problem.path}</Typography.Text>
                </Typography.Text>
              ) : null}
            </div>
            {text.hint ? (
              <div className="problem-hint">
                <Typography.Text type="success">{t('common.problem.fix')}</Typography.Text> {text.hint}
              </div>
            ) : null}
            <OriginalText text={text} />
          </li>
        );
      })}
    </ul>
  );
}
