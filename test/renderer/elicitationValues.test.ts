import { describe, expect, it } from 'vitest';
import type { ElicitationField } from '../../src/shared/elicitation.js';
import { checkValue, contentOf, initialValues, itemOfPath, toLocalInput } from '../../renderer/src/components/elicitation/elicitationValues.js';

const field = (extra: Partial<ElicitationField> & Pick<ElicitationField, 'name' | 'type'>): ElicitationField => ({ required: false, ...extra });

const fields: ElicitationField[] = [
  field({ name: 'name', type: 'string', required: true, minLength: 2 }),
  field({ name: 'guests', type: 'integer', required: true, minimum: 1, maximum: 12, default: 2 }),
  field({ name: 'meal', type: 'enum', options: [{ value: 'fish', label: 'Fish' }], default: 'fish' }),
  field({ name: 'terrace', type: 'boolean' }),
  field({ name: 'extras', type: 'multi', options: ['bread', 'wine'].map((value) => ({ value, label: value })), maxItems: 1, default: ['bread'] }),
  field({ name: '__proto__', type: 'string' }),
];

describe('a server question’s form values', () => {
  it('starts each field at its default, under form names that are positions, never the server’s names', () => {
    expect(initialValues(fields)).toEqual({ f1: 2, f2: 'fish', f4: ['bread'] });
    // A required switch with no default is an answer as it stands (off); an optional one is left out untouched.
    expect(initialValues([field({ name: 'ok', type: 'boolean', required: true })])).toEqual({ f0: false });
  });

  it('sends the filled fields under the server’s names, numbers as numbers, empty optional fields left out', () => {
    const content = contentOf(fields, { f0: 'Ada', f1: 4, f2: 'fish', f3: true, f4: ['wine'], f5: 'odd name' });
    expect(content).toEqual({ name: 'Ada', guests: 4, meal: 'fish', terrace: true, extras: ['wine'], ['__proto__']: 'odd name' });
    // A field named like Object.prototype's own is a plain key of the answer, not its prototype.
    expect(Object.hasOwn(content, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(content)).toBe(Object.prototype);
    expect(contentOf(fields, { f0: 'Ada', f1: 3, f5: '' })).toEqual({ name: 'Ada', guests: 3 });
  });

  it('checks what the host checks, and says what is wrong', () => {
    expect(checkValue(fields[0]!, '')).toEqual({ key: 'required' });
    expect(checkValue(fields[0]!, 'A')).toEqual({ key: 'minLength', limit: 2 });
    expect(checkValue(fields[1]!, 13)).toEqual({ key: 'maximum', limit: 12 });
    expect(checkValue(fields[1]!, 2.5)).toEqual({ key: 'integer' });
    expect(checkValue(fields[2]!, 'beef')).toEqual({ key: 'option' });
    expect(checkValue(fields[4]!, ['bread', 'wine'])).toEqual({ key: 'maxItems', limit: 1 });
    expect(checkValue(field({ name: 'e', type: 'string', format: 'email' }), 'not-an-address')).toEqual({ key: 'email' });
    expect(checkValue(field({ name: 'u', type: 'string', format: 'uri' }), 'https://example.com/x')).toBeUndefined();
    expect(checkValue(field({ name: 'd', type: 'string', format: 'date' }), '2026-13-45')).toEqual({ key: 'date' });
    expect(checkValue(field({ name: 'd', type: 'string', format: 'date' }), '2025-02-30')).toEqual({ key: 'date' });
    expect(checkValue(field({ name: 'e', type: 'string', format: 'email' }), 'ada@localhost')).toEqual({ key: 'email' });
    // Characters, not UTF-16 units: two emoji are two.
    expect(checkValue(field({ name: 's', type: 'string', maxLength: 2 }), '😀😀')).toBeUndefined();
    expect(checkValue(fields[5]!, undefined)).toBeUndefined();
  });

  it('shows a date-time default in the local time input, and sends what is typed back as RFC 3339', () => {
    const at = field({ name: 'at', type: 'string', format: 'date-time', default: '2026-03-04T05:06:00.000Z' });
    const shown = initialValues([at]).f0 as string;
    expect(shown).toBe(toLocalInput('2026-03-04T05:06:00.000Z'));
    expect(shown).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(contentOf([at], { f0: shown })).toEqual({ at: '2026-03-04T05:06:00.000Z' });
  });

  it('places a host error on the field it names, in either path form', () => {
    expect(itemOfPath(fields, 'guests')).toBe('f1');
    expect(itemOfPath(fields, 'content.guests')).toBe('f1');
    expect(itemOfPath(fields, '/content/meal')).toBe('f2');
    expect(itemOfPath(fields, 'content')).toBeUndefined();
    expect(itemOfPath(fields, 'unknown')).toBeUndefined();
  });
});
