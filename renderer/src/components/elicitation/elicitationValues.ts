import type { ElicitationContent, ElicitationField } from '../../../../src/shared/elicitation';

/**
 * The form side of a server's question, apart from React: what each field
 * starts with, what the user may enter (the same checks the host makes
 * again, docs/using/elicitation.md), and the answer built from the form.
 * Form items are named by position (`f0`, `f1`, …), never by the server's
 * field names: a name is the server's data, and it must not reach a form
 * library's object paths.
 */

export type FormValues = Record<string, unknown>;

/** The form item name of the field at `index`. */
export const itemName = (index: number): string => `f${index}`;

/** Which input a string field gets: the browser's own for a date or an address. */
export function inputTypeOf(format: string | undefined): 'email' | 'url' | 'date' | 'datetime-local' | 'text' {
  switch (format) {
    case 'email':
      return 'email';
    case 'uri':
      return 'url';
    case 'date':
      return 'date';
    case 'date-time':
      return 'datetime-local';
    default:
      return 'text';
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An RFC 3339 time as a `datetime-local` input shows it (local time, to the minute); undefined if it is not one. */
export function toLocalInput(value: string): string | undefined {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return undefined;
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/**
 * What each form item starts with: the field's default, in the shape its
 * input takes — the prefill of the shared formDefaults, which is not
 * imported here because that module brings zod into the renderer's bundle.
 */
export function initialValues(fields: readonly ElicitationField[]): FormValues {
  const values: FormValues = {};
  fields.forEach((field, index) => {
    const value = field.default;
    if (value === undefined) {
      // A switch shows off either way; a required one is an answer as it stands, an optional one untouched is left out.
      if (field.type === 'boolean' && field.required) values[itemName(index)] = false;
      return;
    }
    values[itemName(index)] = field.type === 'string' && field.format === 'date-time' && typeof value === 'string' ? (toLocalInput(value) ?? value) : value;
  });
  return values;
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

// The host's own patterns (src/core/elicitation/formContent.ts): what passes here passes there.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date that exists (no 2025-02-30). */
function realDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** What is wrong with a value, as an i18n key under `elicitation.invalid.` and its numbers. */
export interface Problem {
  key: 'required' | 'minLength' | 'maxLength' | 'email' | 'uri' | 'date' | 'dateTime' | 'number' | 'integer' | 'minimum' | 'maximum' | 'option' | 'minItems' | 'maxItems';
  limit?: number;
}

/** The first thing wrong with a form item's value for its field, or undefined when the host will take it. */
export function checkValue(field: ElicitationField, value: unknown): Problem | undefined {
  if (isEmpty(value)) return field.required ? { key: 'required' } : undefined;
  const allowed = new Set((field.options ?? []).map((option) => option.value));
  switch (field.type) {
    case 'string': {
      const text = String(value);
      // Characters as JSON Schema counts them (code points), not UTF-16 units.
      const length = [...text].length;
      if (field.minLength !== undefined && length < field.minLength) return { key: 'minLength', limit: field.minLength };
      if (field.maxLength !== undefined && length > field.maxLength) return { key: 'maxLength', limit: field.maxLength };
      if (field.format === 'email' && !EMAIL.test(text)) return { key: 'email' };
      if (field.format === 'uri' && !(URL.canParse(text) && /^[a-z][a-z0-9+.-]*:/i.test(text))) return { key: 'uri' };
      if (field.format === 'date' && !realDate(text)) return { key: 'date' };
      // The form's local time (`datetime-local`) is sent as RFC 3339 (contentOf), which the host checks.
      if (field.format === 'date-time' && !(realDate(text.slice(0, 10)) && !Number.isNaN(Date.parse(text)))) return { key: 'dateTime' };
      return undefined;
    }
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return { key: 'number' };
      if (field.type === 'integer' && !Number.isInteger(value)) return { key: 'integer' };
      if (field.minimum !== undefined && value < field.minimum) return { key: 'minimum', limit: field.minimum };
      if (field.maximum !== undefined && value > field.maximum) return { key: 'maximum', limit: field.maximum };
      return undefined;
    }
    case 'boolean':
      return undefined;
    case 'enum':
      return typeof value === 'string' && allowed.has(value) ? undefined : { key: 'option' };
    case 'multi': {
      const picked = Array.isArray(value) ? value : [];
      if (!picked.every((item) => typeof item === 'string' && allowed.has(item))) return { key: 'option' };
      if (field.minItems !== undefined && picked.length < field.minItems) return { key: 'minItems', limit: field.minItems };
      if (field.maxItems !== undefined && picked.length > field.maxItems) return { key: 'maxItems', limit: field.maxItems };
      return undefined;
    }
  }
}

/** The answer to send: each filled field under the server's own name (a date-time as RFC 3339); empty optional fields left out. */
export function contentOf(fields: readonly ElicitationField[], values: FormValues): ElicitationContent {
  const entries: [string, ElicitationContent[string]][] = [];
  fields.forEach((field, index) => {
    const value = values[itemName(index)];
    if (isEmpty(value)) return;
    if (field.type === 'boolean') entries.push([field.name, value === true]);
    else if (field.type === 'multi') entries.push([field.name, (value as unknown[]).map(String)]);
    else if (field.type === 'number' || field.type === 'integer') entries.push([field.name, Number(value)]);
    else if (field.type === 'string' && field.format === 'date-time') entries.push([field.name, toRfc3339(String(value))]);
    else entries.push([field.name, String(value)]);
  });
  // fromEntries defines own properties: a field named like an Object.prototype member stays a plain key.
  return Object.fromEntries(entries);
}

/** A `datetime-local` value (local time) as RFC 3339 in UTC; a value already carrying its zone stays as typed. */
function toRfc3339(value: string): string {
  if (/[zZ]|[+-]\d{2}:\d{2}$/.test(value)) return value;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? value : at.toISOString();
}

/**
 * Which form item a host error names: its `path` is the field's name,
 * maybe under `content` (`content.email`, `content/email`). Undefined for an
 * error about the whole answer.
 */
export function itemOfPath(fields: readonly ElicitationField[], path: string): string | undefined {
  const name = path.replace(/^\/?(content[./])?/, '');
  const index = fields.findIndex((field) => field.name === name);
  return index === -1 ? undefined : itemName(index);
}
