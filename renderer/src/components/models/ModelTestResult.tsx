import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ModelTestResult as Result } from '../../../../src/shared/models';
import { failureDetailKey, failureWords } from './failureWords';
import '../../i18n/load/models';

/** A test's outcome under its model's row: the answer, or the coded failure in words with its own text (the provider's, where it answered). */
export function ModelTestResult({ result, entry }: { result: Result; entry: { id: string; baseUrl: string; model: string } }) {
  const { t } = useTranslation();
  if (result.ok) {
    const text = result.text.trim().slice(0, 200);
    const title =
      result.dimensions !== undefined
        ? t('models.test.okEmbedding', { ms: result.ms, dimensions: result.dimensions })
        : text
          ? t('models.test.ok', { ms: result.ms, text })
          : t('models.test.okEmpty', { ms: result.ms });
    return (
      <Alert
        type="success"
        showIcon
        data-testid={`model-test-result-${entry.id}`}
        data-ok="true"
        title={title}
        description={result.reasoning ? t('models.test.thought', { text: result.reasoning.trim().slice(0, 200) }) : undefined}
      />
    );
  }
  const words = failureWords(result.error, entry);
  return (
    <Alert
      type="error"
      showIcon
      data-testid={`model-test-result-${entry.id}`}
      data-ok="false"
      data-kind={result.error.kind}
      title={t(words.key, words.values)}
      description={result.error.message ? t(failureDetailKey(result.error), { message: result.error.message }) : undefined}
    />
  );
}
