import type { ElicitationField } from '../../shared/elicitation.js';
import { isPlainObject } from '../plainObject.js';
import { valueError } from './formContent.js';
import { sensitiveFieldReason } from './sensitiveField.js';

/**
 * A server's form (elicitation/create, form mode) checked before anyone is
 * asked (docs/using/elicitation.md#what-is-refused): the spec's restricted
 * schema (a flat object of strings, numbers, booleans and single- or
 * multi-select enums), bounded in size, with no field that asks for a
 * secret. What passes becomes the fields a face renders.
 */

export const FORM_LIMITS = {
  /** Fields of one form. */
  maxFields: 50,
  /** The requested schema as JSON, in bytes. */
  maxSchemaBytes: 32 * 1024,
  /** The server's message, in characters. */
  maxMessageChars: 4_000,
};

/** A field name: a plain identifier (a letter first, then letters, digits, `_`, `-`, `.`), short. */
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

const STRING_FORMATS: ReadonlySet<string> = new Set(['email', 'uri', 'date', 'date-time']);

export type FormCheck = { ok: true; fields: ElicitationField[] } | { ok: false; reason: string };

/** Thrown inside the check with the reason; caught once at its top. */
class Refused extends Error {}

const refuse = (reason: string): never => {
  throw new Refused(reason);
};

function optionalString(property: Record<string, unknown>, key: string, where: string): string | undefined {
  const value = property[key];
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : refuse(`${where}: "${key}" must be a string`);
}

function optionalCount(property: Record<string, unknown>, key: string, where: string): number | undefined {
  const value = property[key];
  if (value === undefined) return undefined;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : refuse(`${where}: "${key}" must be a whole number, 0 or more`);
}

function optionalNumber(property: Record<string, unknown>, key: string, where: string): number | undefined {
  const value = property[key];
  if (value === undefined) return undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : refuse(`${where}: "${key}" must be a number`);
}

/** `enum` (with the legacy `enumNames` as labels) or `oneOf`/`anyOf` of `{const, title}`: the choices of a select. */
function optionsOf(source: Record<string, unknown>, listKey: 'oneOf' | 'anyOf', where: string): { value: string; label: string }[] {
  if (source.enum !== undefined) {
    const values = source.enum;
    if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === 'string')) return refuse(`${where}: "enum" must be a list of strings`);
    const names = source.enumNames;
    const labels = Array.isArray(names) && names.length === values.length && names.every((n) => typeof n === 'string') ? (names as string[]) : undefined;
    return (values as string[]).map((value, i) => ({ value, label: labels?.[i] ?? value }));
  }
  const list = source[listKey];
  if (!Array.isArray(list) || list.length === 0) return refuse(`${where}: a select needs "enum" or "${listKey}" (a list of {const, title})`);
  return list.map((entry, i) => {
    if (!isPlainObject(entry) || typeof entry.const !== 'string') return refuse(`${where}: ${listKey}[${i}] must be {"const": string, "title": string}`);
    return { value: entry.const, label: typeof entry.title === 'string' ? entry.title : entry.const };
  });
}

/** One property of the schema as a field, or a refusal naming it. */
function fieldOf(name: string, property: unknown, required: boolean): ElicitationField {
  const where = `field "${name}"`;
  if (!FIELD_NAME.test(name)) return refuse(`the field name ${JSON.stringify(name.slice(0, 80))} is not a plain identifier (a letter, then letters, digits, "_", "-" or ".", at most 64)`);
  if (!isPlainObject(property)) return refuse(`${where} must be a schema object`);
  const title = optionalString(property, 'title', where);
  const description = optionalString(property, 'description', where);
  const secret = sensitiveFieldReason(name, title, description);
  if (secret) return refuse(`${where} looks like it asks for a password, key, token or other secret (${secret}); servers must not ask for secrets in a form`);
  const base = { name, required, ...(title !== undefined ? { title } : {}), ...(description !== undefined ? { description } : {}) };
  let field: ElicitationField;
  switch (property.type) {
    case 'string': {
      if (property.enum !== undefined || property.oneOf !== undefined) {
        field = { ...base, type: 'enum', options: optionsOf(property, 'oneOf', where) };
        break;
      }
      const format = optionalString(property, 'format', where);
      if (format !== undefined && !STRING_FORMATS.has(format)) return refuse(`${where}: format "${format}" is not one of email, uri, date, date-time`);
      const minLength = optionalCount(property, 'minLength', where);
      const maxLength = optionalCount(property, 'maxLength', where);
      field = { ...base, type: 'string', ...(format ? { format } : {}), ...(minLength !== undefined ? { minLength } : {}), ...(maxLength !== undefined ? { maxLength } : {}) };
      break;
    }
    case 'number':
    case 'integer': {
      const minimum = optionalNumber(property, 'minimum', where);
      const maximum = optionalNumber(property, 'maximum', where);
      field = { ...base, type: property.type, ...(minimum !== undefined ? { minimum } : {}), ...(maximum !== undefined ? { maximum } : {}) };
      break;
    }
    case 'boolean':
      field = { ...base, type: 'boolean' };
      break;
    case 'array': {
      if (!isPlainObject(property.items)) return refuse(`${where}: a multi-select needs "items" with "enum" or "anyOf"`);
      const minItems = optionalCount(property, 'minItems', where);
      const maxItems = optionalCount(property, 'maxItems', where);
      field = { ...base, type: 'multi', options: optionsOf(property.items, 'anyOf', where), ...(minItems !== undefined ? { minItems } : {}), ...(maxItems !== undefined ? { maxItems } : {}) };
      break;
    }
    case 'object':
      return refuse(`${where} is a nested object; a form holds only text, numbers, booleans and choices`);
    default:
      return refuse(`${where} has type ${JSON.stringify(property.type ?? null)}; a form field is a string, number, integer, boolean or array of choices`);
  }
  // SEP-1034: a default is kept only when it is a valid value of its field (the form starts with it).
  if (property.default !== undefined && property.default !== null && valueError(field, property.default) === undefined) field.default = property.default;
  return field;
}

/** The server's message and form schema as fields, or why they are refused. */
export function checkForm(message: unknown, requestedSchema: unknown): FormCheck {
  try {
    const badMessage = messageProblem(message);
    if (badMessage) return { ok: false, reason: badMessage };
    let bytes: number;
    try {
      bytes = Buffer.byteLength(JSON.stringify(requestedSchema) ?? '');
    } catch {
      return { ok: false, reason: 'the requested schema is not JSON' };
    }
    if (bytes > FORM_LIMITS.maxSchemaBytes)
      return { ok: false, reason: `the requested schema is ${bytes.toLocaleString('en')} bytes of JSON; at most ${FORM_LIMITS.maxSchemaBytes.toLocaleString('en')}` };
    if (!isPlainObject(requestedSchema) || requestedSchema.type !== 'object' || !isPlainObject(requestedSchema.properties)) {
      return { ok: false, reason: 'the requested schema must be {"type": "object", "properties": {…}}' };
    }
    const names = Object.keys(requestedSchema.properties);
    if (names.length > FORM_LIMITS.maxFields) return { ok: false, reason: `the form has ${names.length} fields; at most ${FORM_LIMITS.maxFields}` };
    const required = requestedSchema.required ?? [];
    if (!Array.isArray(required) || !required.every((r) => typeof r === 'string')) return { ok: false, reason: '"required" must be a list of field names' };
    const properties = requestedSchema.properties;
    return { ok: true, fields: names.map((name) => fieldOf(name, properties[name], required.includes(name))) };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.message };
    throw error;
  }
}

/** What is wrong with the server's own words to the user (text, bounded); undefined when nothing is. */
export function messageProblem(message: unknown): string | undefined {
  if (typeof message !== 'string') return '"message" must be a string';
  if (message.length > FORM_LIMITS.maxMessageChars) return `the message is ${message.length.toLocaleString('en')} characters; at most ${FORM_LIMITS.maxMessageChars.toLocaleString('en')}`;
  return undefined;
}
