import type { ElicitationContent, ElicitationField } from '../../shared/elicitation.js';
import { isPlainObject } from '../plainObject.js';

/** What is wrong with one field's value, said so a face can show it next to the field. */
export interface FieldError {
  field: string;
  message: string;
}

export type ContentCheck = { ok: true; content: ElicitationContent } | { ok: false; errors: FieldError[] };

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** A calendar date that exists (no 2025-02-30). */
function realDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function formatError(format: string | undefined, value: string): string | undefined {
  switch (format) {
    case 'email':
      return EMAIL.test(value) ? undefined : 'is not an email address (name@example.com)';
    case 'uri':
      return URL.canParse(value) && /^[a-z][a-z0-9+.-]*:/i.test(value) ? undefined : 'is not a full url (https://…)';
    case 'date':
      return realDate(value) ? undefined : 'is not a date (YYYY-MM-DD)';
    case 'date-time':
      return DATE_TIME.test(value) && realDate(value.slice(0, 10)) && !Number.isNaN(Date.parse(value)) ? undefined : 'is not a date and time (YYYY-MM-DDThh:mm:ssZ)';
    default:
      return undefined;
  }
}

const quoted = (value: string) => JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}…` : value);

/** What is wrong with `value` for this field (present, not undefined); undefined when it is valid. */
export function valueError(field: ElicitationField, value: unknown): string | undefined {
  switch (field.type) {
    case 'string': {
      if (typeof value !== 'string') return 'must be text';
      // JSON Schema counts characters (code points), not UTF-16 units.
      const length = [...value].length;
      if (field.minLength !== undefined && length < field.minLength) return `must be at least ${field.minLength} characters`;
      if (field.maxLength !== undefined && length > field.maxLength) return `must be at most ${field.maxLength} characters`;
      return formatError(field.format, value);
    }
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (field.type === 'integer' && !Number.isInteger(value)) return 'must be a whole number';
      if (field.minimum !== undefined && value < field.minimum) return `must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `must be at most ${field.maximum}`;
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'enum': {
      if (typeof value !== 'string') return 'must be one of the choices';
      return field.options?.some((option) => option.value === value) ? undefined : `${quoted(value)} is not one of the choices`;
    }
    case 'multi': {
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return 'must be a list of choices';
      const unknown = value.find((item) => !field.options?.some((option) => option.value === item));
      if (unknown !== undefined) return `${quoted(unknown)} is not one of the choices`;
      if (new Set(value).size !== value.length) return 'names a choice twice';
      if (field.minItems !== undefined && value.length < field.minItems) return `needs at least ${field.minItems} choice${field.minItems === 1 ? '' : 's'}`;
      if (field.maxItems !== undefined && value.length > field.maxItems) return `allows at most ${field.maxItems} choice${field.maxItems === 1 ? '' : 's'}`;
      return undefined;
    }
  }
}

/**
 * A form's answer checked against its fields: each value of its field's
 * type, within its limits and choices; every required field given. Keys
 * that are no field are dropped (the server never sees what it did not
 * ask for). The content returned is what goes to the server.
 */
export function validateContent(fields: readonly ElicitationField[], content: unknown): ContentCheck {
  const given = content === undefined ? {} : content;
  if (!isPlainObject(given)) return { ok: false, errors: [{ field: '(content)', message: 'must be an object of field values' }] };
  const errors: FieldError[] = [];
  const kept: [string, ElicitationContent[string]][] = [];
  for (const field of fields) {
    const value = Object.hasOwn(given, field.name) ? given[field.name] : undefined;
    if (value === undefined || value === null) {
      if (field.required) errors.push({ field: field.name, message: 'is required' });
      continue;
    }
    const error = valueError(field, value);
    if (error) errors.push({ field: field.name, message: error });
    else kept.push([field.name, value as ElicitationContent[string]]);
  }
  return errors.length ? { ok: false, errors } : { ok: true, content: Object.fromEntries(kept) };
}
