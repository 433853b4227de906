import { Alert, Input, Spin, Tabs } from 'antd';
import { type RefObject, lazy, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { parseArgsJson } from './rawJson';
import '../../i18n/load/playground';
import { PartSuspense } from '../../shell/lazyPart';

// @rjsf and ajv load only when the Playground shows a form.
const SchemaForm = lazy(() => import('./SchemaForm'));

type Mode = 'form' | 'raw';

/**
 * A tool's arguments, as a form generated from its input schema or as raw
 * JSON; switching carries the value over. `readArgsRef` gives the caller
 * the arguments to send, or undefined after showing what is wrong.
 */
export function ToolArgsEditor(props: { inputSchema: Record<string, unknown>; readArgsRef: RefObject<(() => Record<string, unknown> | undefined) | null> }) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<Mode>('form');
  const [args, setArgs] = useState<Record<string, unknown>>({});
  const [raw, setRaw] = useState('{}');
  const [rawError, setRawError] = useState<string | undefined>();
  const validateRef = useRef<(() => boolean) | null>(null);

  const checkRaw = (text: string) => {
    const parsed = parseArgsJson(text);
    if (parsed.ok) {
      setRawError(undefined);
      return parsed.args;
    }
    setRawError(parsed.reason === 'notObject' ? t('playground.args.notObject') : t('playground.args.syntax', { message: parsed.message }));
    return undefined;
  };

  useEffect(() => {
    props.readArgsRef.current = () => {
      if (mode === 'raw') return checkRaw(raw);
      return (validateRef.current?.() ?? true) ? args : undefined;
    };
  });

  const switchTo = (next: Mode) => {
    if (next === mode) return;
    if (next === 'raw') {
      setRaw(JSON.stringify(args, null, 2));
      setRawError(undefined);
      setMode('raw');
      return;
    }
    const parsed = checkRaw(raw);
    // Invalid JSON stays on the raw tab with its error rather than losing what was typed.
    if (parsed) {
      setArgs(parsed);
      setMode('form');
    }
  };

  return (
    <Tabs
      size="small"
      activeKey={mode}
      onChange={(key) => switchTo(key as Mode)}
      items={[
        {
          key: 'form',
          label: <span data-testid="args-tab-form">{t('playground.args.form')}</span>,
          children: (
            <PartSuspense fallback={<Spin />}>
              <div data-testid="args-form">
                <SchemaForm schema={props.inputSchema} formData={args} onChange={setArgs} validateRef={validateRef} />
              </div>
            </PartSuspense>
          ),
        },
        {
          key: 'raw',
          label: <span data-testid="args-tab-raw">{t('playground.args.raw')}</span>,
          children: (
            <>
              <Input.TextArea
                value={raw}
                onChange={(e) => {
                  setRaw(e.target.value);
                  if (rawError) checkRaw(e.target.value);
                }}
                onBlur={() => checkRaw(raw)}
                autoSize={{ minRows: 6, maxRows: 20 }}
                spellCheck={false}
                status={rawError ? 'error' : undefined}
                style={{ fontFamily: 'var(--ant-font-family-code, monospace)' }}
                data-testid="args-raw"
              />
              {rawError && <Alert type="error" showIcon style={{ marginTop: 8 }} title={rawError} data-testid="args-raw-error" />}
            </>
          ),
        },
      ]}
    />
  );
}
