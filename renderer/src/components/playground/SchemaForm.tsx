import Form from '@rjsf/antd';
import { type RJSFSchema, TranslatableString, type UiSchema, replaceStringParameters } from '@rjsf/utils';
import { type RefObject, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { createSchemaValidator } from './rjsfValidator';
import '../../i18n/load/playground';

export interface SchemaFormProps {
  schema: Record<string, unknown>;
  formData: Record<string, unknown>;
  onChange(data: Record<string, unknown>): void;
  /** Filled with a function that shows the form's errors and says whether it is valid. */
  validateRef: RefObject<(() => boolean) | null>;
}

// The Call button outside the form submits; rjsf's own submit button would be a second one.
const UI_SCHEMA: UiSchema = { 'ui:submitButtonOptions': { norender: true } };

/** rjsf's own words ("Add Item", "Remove"…) by their enum name, which names the i18n key. */
const STRING_NAMES = new Map<string, string>(Object.entries(TranslatableString).map(([name, text]) => [text, name]));

/**
 * The dialect declaration (`$schema`: draft-07, 2020-12…) is dropped: the
 * checker reads both spellings of the keywords tools use, and rjsf would
 * otherwise treat the meta-schema url as something to resolve.
 */
function withoutDialect(schema: Record<string, unknown>): RJSFSchema {
  const { $schema: _dialect, ...rest } = schema;
  return { type: 'object', ...rest } as RJSFSchema;
}

/**
 * A form generated from a tool's JSON Schema (@rjsf with the antd theme).
 * This module is imported lazily by the Playground only, so @rjsf is a
 * chunk of its own that no other page downloads. Validation is
 * rjsfValidator.ts, not @rjsf/validator-ajv8: ajv compiles with
 * `new Function`, which the renderer's CSP (no 'unsafe-eval') forbids.
 */
export default function SchemaForm({ schema, formData, onChange, validateRef }: SchemaFormProps) {
  const { t, i18n } = useTranslation();
  const rjsfSchema = useMemo(() => withoutDialect(schema), [schema]);
  // Rebuilt when the language changes, so messages follow it.
  const validator = useMemo(() => createSchemaValidator((issue) => t(`playground.validation.${issue.keyword}`, { ...issue.params, defaultValue: issue.keyword })), [t, i18n.language]);
  const translateString = useMemo(
    () => (text: TranslatableString, params?: string[]) => {
      const name = STRING_NAMES.get(text);
      const key = `playground.rjsf.${name}`;
      return replaceStringParameters(name && i18n.exists(key) ? t(key) : text, params);
    },
    [t, i18n],
  );
  const formRef = useRef<{ validateForm(): boolean } | null>(null);
  useEffect(() => {
    validateRef.current = () => formRef.current?.validateForm() ?? true;
    return () => {
      validateRef.current = null;
    };
  }, [validateRef]);
  return (
    <div className="chatos-schema-form">
      {/* rjsf wraps the root object in a bare <fieldset>; the card around it is frame enough. */}
      <style>{'.chatos-schema-form > form > fieldset, .chatos-schema-form fieldset#root { border: 0; padding: 0; margin: 0; min-width: 0; }'}</style>
      <Form
        ref={formRef as never}
        schema={rjsfSchema}
        uiSchema={UI_SCHEMA}
        validator={validator}
        formData={formData}
        onChange={(event) => onChange((event.formData ?? {}) as Record<string, unknown>)}
        translateString={translateString}
        showErrorList={false}
        noHtml5Validate
      />
    </div>
  );
}
