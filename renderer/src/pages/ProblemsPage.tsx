import { useState } from 'react';
import { Badge, Card, Empty, Result, Segmented, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SourcedProblem } from '../../../src/shared/hostApi';
import type { ProblemSeverity } from '../../../src/shared/problems';
import { useApi } from '../api/hooks';
import { ProblemList, SEVERITY_COLOR } from '../components/ProblemList';
import { ApiErrorAlert } from '../shell/ApiErrorAlert';
import '../i18n/load/problems';
import { useProblemTexts } from '../i18n/problemTexts';

const SOURCES: SourcedProblem['source'][] = ['plugins', 'registry', 'mcp', 'servers', 'chat'];
const SEVERITIES: ProblemSeverity[] = ['error', 'warning', 'notice'];
type SeverityFilter = ProblemSeverity | 'all';

/** Everything the host wants the user to read, by where it comes from; live as things change. */
export default function ProblemsPage() {
  const { t } = useTranslation();
  useProblemTexts();
  const problems = useApi('problems.list', {}, { refreshOn: ['problems.changed', 'plugins.changed', 'mcp.reloaded', 'registry.changed'] });
  const [severity, setSeverity] = useState<SeverityFilter>('all');
  const all = problems.data?.problems ?? [];
  const shown = severity === 'all' ? all : all.filter((problem) => problem.severity === severity);
  const count = (value: SeverityFilter) => (value === 'all' ? all.length : all.filter((problem) => problem.severity === value).length);

  return (
    <div data-testid="page-problems" className="page-stack">
      <div className="page-toolbar">
        <Typography.Text type="secondary" className="page-toolbar-text">
          {t('problems.intro')}
        </Typography.Text>
        <Segmented<SeverityFilter>
          value={severity}
          onChange={setSeverity}
          data-testid="severity-filter"
          options={(['all', ...SEVERITIES] as SeverityFilter[]).map((value) => ({
            value,
            label: `${t(`problems.filter.${value}`)} (${count(value)})`,
          }))}
        />
      </div>

      {problems.error ? <ApiErrorAlert error={problems.error} onRetry={() => void problems.reload()} /> : null}
      {!problems.data && problems.loading ? <Skeleton active paragraph={{ rows: 8 }} /> : null}

      {problems.data && all.length === 0 ? <Result status="success" title={t('problems.none')} subTitle={t('problems.noneHint')} data-testid="problems-empty" /> : null}
      {problems.data && all.length > 0 && shown.length === 0 ? <Empty description={t('problems.noneOfSeverity')} /> : null}

      {SOURCES.map((source) => {
        const group = shown.filter((problem) => problem.source === source);
        if (group.length === 0) return null;
        const errors = group.filter((problem) => problem.severity === 'error').length;
        return (
          <Card
            key={source}
            size="small"
            data-testid={`problems-${source}`}
            title={
              <span className="problems-group-title">
                {t(`problems.source.${source}`)}
                <Badge count={group.length} color={errors > 0 ? SEVERITY_COLOR.error : SEVERITY_COLOR.warning} showZero overflowCount={999} />
              </span>
            }
          >
            <ProblemList problems={group} testId={`problem-list-${source}`} />
          </Card>
        );
      })}
    </div>
  );
}
