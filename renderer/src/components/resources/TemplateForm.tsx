import { AutoComplete, Button, Space, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorLine } from '../../api/client';
import type { ResourceAsker, ResourceTemplate } from './resourceAsker';
import '../../i18n/load/resources';

/** Waits this long after a keystroke before asking the server for completions. */
const COMPLETE_DELAY_MS = 250;

/** One argument's field: what is typed, and the server's completions for it (`completion/complete`), asked a moment after typing. */
function ArgumentField(props: { asker: ResourceAsker; serverId: string; template: ResourceTemplate; name: string; values: Record<string, string>; onChange(value: string): void }) {
  const { asker, serverId, template, name, values, onChange } = props;
  const [options, setOptions] = useState<string[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const value = values[name] ?? '';
  useEffect(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const context = Object.fromEntries(Object.entries(values).filter(([key, v]) => key !== name && v !== ''));
      api.call('resources.complete', { ...asker, serverId, uriTemplate: template.uriTemplate, name, value, context }).then(
        ({ values: found }) => setOptions(found),
        () => setOptions([]),
      );
    }, COMPLETE_DELAY_MS);
    return () => clearTimeout(timer.current);
    // Asked again when this value (or the asker) changes; the other values are context only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value, asker.agentId, asker.conversationId, serverId, template.uriTemplate, name]);
  return (
    <Space size={4}>
      <Typography.Text>{name}:</Typography.Text>
      <AutoComplete value={value} options={options.map((option) => ({ value: option }))} onChange={onChange} aria-label={name} data-testid={`template-arg-${name}`} style={{ minWidth: 200 }} />
    </Space>
  );
}

/**
 * A resource template's arguments as a form, each with the server's
 * completions; the filled uri (docs/using/resources.md#templates) goes to
 * `onUri`. A value that cannot be filled in (empty, a ".." in a path) is said.
 * A plain form, not antd's: the values are this component's state, and
 * antd's Form (~20 KB gzip with its validator) would be the largest part of
 * the Playground's resource browser, which shows this at once.
 */
export function TemplateForm(props: { asker: ResourceAsker; serverId: string; template: ResourceTemplate; action: string; onUri(uri: string): void }) {
  const { asker, serverId, template, action, onUri } = props;
  const { t } = useTranslation();
  const [values, setValues] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | undefined>();
  // The host fills the template (and refuses a value that would climb out of its path).
  const use = async () => {
    try {
      const { uri } = await api.call('resources.fill', { uriTemplate: template.uriTemplate, values });
      setProblem(undefined);
      onUri(uri);
    } catch (error) {
      setProblem(errorLine(error));
    }
  };
  return (
    <form
      data-testid="template-form"
      style={{ marginBlock: 8 }}
      onSubmit={(event) => {
        event.preventDefault();
        void use();
      }}
    >
      <Space wrap size={[16, 8]}>
        {template.arguments.map((name) => (
          <ArgumentField key={name} asker={asker} serverId={serverId} template={template} name={name} values={values} onChange={(value) => setValues((all) => ({ ...all, [name]: value }))} />
        ))}
        <Button htmlType="submit" data-testid="template-use">
          {action}
        </Button>
        {problem && (
          <Typography.Text type="danger" data-testid="template-problem">
            {t('resources.template.problem', { problem })}
          </Typography.Text>
        )}
      </Space>
    </form>
  );
}
