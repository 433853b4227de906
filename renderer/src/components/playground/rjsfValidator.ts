import { ErrorSchemaBuilder, toErrorSchema, type RJSFSchema, type RJSFValidationError, type ValidatorType } from '@rjsf/utils';
import { checkJsonSchema, type SchemaIssue } from './jsonSchemaCheck';

/** Turns one issue into a sentence in the UI language (`playground.validation.<keyword>`). */
export type IssueMessage = (issue: SchemaIssue) => string;

/**
 * An @rjsf validator on the interpreting checker (see jsonSchemaCheck.ts for
 * why it is not ajv). rjsf uses `isValid` to pick anyOf/oneOf branches and
 * if/then/else, and `validateFormData` for the errors it shows per field.
 */
export function createSchemaValidator(message: IssueMessage): ValidatorType {
  const toErrors = (issues: SchemaIssue[]): RJSFValidationError[] =>
    issues.map((issue) => {
      const property = issue.path.length ? `.${issue.path.join('.')}` : '';
      const text = message(issue);
      return { name: issue.keyword, property, message: text, params: issue.params, stack: `${property.slice(1) || '(root)'}: ${text}` };
    });

  return {
    validateFormData(formData, schema, customValidate, transformErrors, uiSchema) {
      // The Playground passes no customValidate; supporting it would need rjsf's form-state merge, so it is refused loudly.
      if (customValidate) throw new Error('customValidate is not supported by the Playground validator');
      const issues = checkJsonSchema(schema, formData ?? {});
      const errors = toErrors(issues);
      if (transformErrors) {
        const transformed = transformErrors(errors, uiSchema);
        return { errors: transformed, errorSchema: toErrorSchema(transformed) };
      }
      // Built from the issue paths, not the dotted `property`, so a property name with a dot stays one segment.
      const builder = new ErrorSchemaBuilder();
      issues.forEach((issue, i) => builder.addErrors(errors[i]!.message!, issue.path.map(String)));
      return { errors, errorSchema: builder.ErrorSchema };
    },
    isValid(schema: RJSFSchema, formData: unknown, rootSchema: RJSFSchema) {
      return checkJsonSchema(schema, formData, rootSchema).length === 0;
    },
    rawValidation(schema: RJSFSchema, formData?: unknown) {
      return { errors: checkJsonSchema(schema, formData) as never[] };
    },
  };
}
