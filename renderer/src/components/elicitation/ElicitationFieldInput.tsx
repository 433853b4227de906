import { Checkbox, Form, Input, InputNumber, Radio, Select, Switch, type FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ElicitationField } from '../../../../src/shared/elicitation';
import { checkValue, inputTypeOf, itemName } from './elicitationValues';
import '../../i18n/load/elicitation';

/** Up to this many choices show as radio buttons or checkboxes, all in view; more go in a dropdown. */
const INLINE_CHOICES = 5;

/** The input of one field; `value`, `onChange` (and the like) come from the Form.Item around it and go on to the antd input. */
function FieldControl({ field, ...control }: { field: ElicitationField; [prop: string]: unknown }) {
  const options = (field.options ?? []).map((option) => ({ value: option.value, label: option.label }));
  switch (field.type) {
    case 'string':
      return <Input {...control} type={inputTypeOf(field.format)} {...(field.maxLength !== undefined ? { maxLength: field.maxLength } : {})} />;
    case 'number':
    case 'integer':
      return (
        <InputNumber
          {...control}
          style={{ width: '100%', maxWidth: 240 }}
          {...(field.minimum !== undefined ? { min: field.minimum } : {})}
          {...(field.maximum !== undefined ? { max: field.maximum } : {})}
          {...(field.type === 'integer' ? { precision: 0 } : {})}
        />
      );
    case 'boolean':
      return <Switch {...control} />;
    case 'enum':
      return options.length <= INLINE_CHOICES ? (
        <Radio.Group {...control} options={options} />
      ) : (
        <Select {...control} options={options} showSearch optionFilterProp="label" allowClear={!field.required} />
      );
    case 'multi':
      return options.length <= INLINE_CHOICES ? <Checkbox.Group {...control} options={options} /> : <Select {...control} mode="multiple" options={options} optionFilterProp="label" />;
  }
}

/**
 * One field of a server's form: its title (or name), its description as
 * help, the input its type calls for, and the same checks the host makes.
 * Everything shown is the server's text, rendered as text.
 */
export function ElicitationFieldInput({ field, index }: { field: ElicitationField; index: number }) {
  const { t } = useTranslation();
  const rules: FormRule[] = [
    {
      // One validator for every check, so `required` and the rest say the same thing the host would.
      required: field.required,
      validator: async (_rule, value: unknown) => {
        const problem = checkValue(field, value);
        if (problem) throw new Error(t(`elicitation.invalid.${problem.key}`, { limit: problem.limit }));
      },
    },
  ];
  return (
    <div data-testid="elicitation-field" data-field={field.name}>
      <Form.Item name={itemName(index)} label={field.title ?? field.name} extra={field.description} rules={rules} {...(field.type === 'boolean' ? { valuePropName: 'checked' } : {})}>
        <FieldControl field={field} />
      </Form.Item>
    </div>
  );
}
