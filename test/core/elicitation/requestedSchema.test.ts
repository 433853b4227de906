import { describe, expect, it } from 'vitest';
import { checkElicitationUrl } from '../../../src/core/elicitation/elicitationUrl.js';
import { validateContent } from '../../../src/core/elicitation/formContent.js';
import { checkForm } from '../../../src/core/elicitation/requestedSchema.js';
import { formDefaults, type ElicitationField } from '../../../src/shared/elicitation.js';

const form = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });

function fieldsOf(properties: Record<string, unknown>, required: string[] = []): ElicitationField[] {
  const check = checkForm('Tell us', form(properties, required));
  if (!check.ok) throw new Error(check.reason);
  return check.fields;
}

function refusal(schema: unknown, message: unknown = 'Tell us'): string {
  const check = checkForm(message, schema);
  if (check.ok) throw new Error('the form was not refused');
  return check.reason;
}

describe('a requested schema as form fields', () => {
  it('reads every kind of field the spec allows, with their limits and choices', () => {
    const fields = fieldsOf(
      {
        name: { type: 'string', title: 'Name', minLength: 1, maxLength: 40 },
        email: { type: 'string', format: 'email' },
        age: { type: 'integer', minimum: 0, maximum: 150 },
        score: { type: 'number' },
        agree: { type: 'boolean', description: 'Agree to the terms' },
        color: { type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'] },
        hero: { type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }] },
        fish: {
          type: 'array',
          minItems: 1,
          maxItems: 2,
          items: {
            anyOf: [
              { const: 'f1', title: 'Tuna' },
              { const: 'f2', title: 'Trout' },
            ],
          },
        },
        tools: { type: 'array', items: { type: 'string', enum: ['Guitar', 'Piano'] } },
      },
      ['name'],
    );
    expect(fields.map((f) => [f.name, f.type, f.required])).toEqual([
      ['name', 'string', true],
      ['email', 'string', false],
      ['age', 'integer', false],
      ['score', 'number', false],
      ['agree', 'boolean', false],
      ['color', 'enum', false],
      ['hero', 'enum', false],
      ['fish', 'multi', false],
      ['tools', 'multi', false],
    ]);
    expect(fields[0]).toMatchObject({ title: 'Name', minLength: 1, maxLength: 40 });
    expect(fields[1]!.format).toBe('email');
    expect(fields[2]).toMatchObject({ minimum: 0, maximum: 150 });
    expect(fields[5]!.options).toEqual([
      { value: 'r', label: 'Red' },
      { value: 'g', label: 'Green' },
    ]);
    expect(fields[6]!.options).toEqual([{ value: 'h1', label: 'Superman' }]);
    expect(fields[7]).toMatchObject({
      minItems: 1,
      maxItems: 2,
      options: [
        { value: 'f1', label: 'Tuna' },
        { value: 'f2', label: 'Trout' },
      ],
    });
    expect(fields[8]!.options!.map((o) => o.label)).toEqual(['Guitar', 'Piano']);
  });

  it('keeps each default that is valid for its field (SEP-1034) and drops the others', () => {
    const fields = fieldsOf({
      name: { type: 'string', default: 'John Doe' },
      age: { type: 'integer', default: 30 },
      score: { type: 'number', default: 95.5 },
      status: { type: 'string', enum: ['active', 'inactive'], default: 'active' },
      verified: { type: 'boolean', default: true },
      fish: { type: 'array', items: { enum: ['a', 'b'] }, default: ['b'] },
      wrongType: { type: 'integer', default: 'thirty' },
      notAChoice: { type: 'string', enum: ['x'], default: 'y' },
      outOfRange: { type: 'number', maximum: 10, default: 11 },
      badEmail: { type: 'string', format: 'email', default: 'nobody' },
      fraction: { type: 'integer', default: 1.5 },
    });
    expect(formDefaults(fields)).toEqual({ name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true, fish: ['b'] });
  });

  it('refuses a nested object, an unknown type, and a select without choices', () => {
    expect(refusal(form({ address: { type: 'object', properties: { street: { type: 'string' } } } }))).toMatch(/field "address" is a nested object/);
    expect(refusal(form({ blob: { type: 'null' } }))).toMatch(/field "blob" has type "null"/);
    expect(refusal(form({ when: { type: 'string', format: 'time' } }))).toMatch(/format "time" is not one of email, uri, date, date-time/);
    expect(refusal(form({ pick: { type: 'array', items: { type: 'string' } } }))).toMatch(/field "pick": a select needs "enum" or "anyOf"/);
    expect(refusal({ type: 'array' })).toMatch(/must be \{"type": "object"/);
  });

  it('refuses more than 50 fields, a schema over 32 KB, a message over 4,000 characters', () => {
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, { type: 'string' }]));
    expect(refusal(form(many))).toMatch(/51 fields; at most 50/);
    expect(refusal(form({ big: { type: 'string', description: 'x'.repeat(33 * 1024) } }))).toMatch(/bytes of JSON; at most 32,768/);
    expect(refusal(form({ a: { type: 'string' } }), 'm'.repeat(4001))).toMatch(/4,001 characters; at most 4,000/);
    expect(checkForm('m'.repeat(4000), form(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}`, { type: 'string' }])))).ok).toBe(true);
  });

  it('refuses a name that is not a plain identifier', () => {
    expect(refusal(form({ __proto__x: { type: 'string' } }))).toMatch(/is not a plain identifier/);
    expect(refusal(JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'))).toMatch(/"__proto__" is not a plain identifier/);
    expect(refusal(form({ 'a b': { type: 'string' } }))).toMatch(/"a b" is not a plain identifier/);
    expect(refusal(form({ ['x'.repeat(65)]: { type: 'string' } }))).toMatch(/not a plain identifier/);
  });

  it('refuses fields that ask for a secret, by name, title or description, in English and Chinese', () => {
    expect(refusal(form({ password: { type: 'string' } }))).toMatch(/field "password" looks like it asks for a password.*its name/);
    expect(refusal(form({ apiKey: { type: 'string' } }))).toMatch(/its name "apiKey"/);
    expect(refusal(form({ github_token: { type: 'string' } }))).toMatch(/its name "github_token"/);
    expect(refusal(form({ code: { type: 'string', title: 'Card PIN' } }))).toMatch(/its title "Card PIN"/);
    expect(refusal(form({ code: { type: 'string', title: '支付密码' } }))).toMatch(/its title "支付密码"/);
    expect(refusal(form({ value: { type: 'string', description: 'Paste your OpenAI API key here' } }))).toMatch(/its description \("api key"\)/);
    expect(refusal(form({ value: { type: 'string', description: '请输入您的密钥' } }))).toMatch(/its description \("密钥"\)/);
    // A description that warns against a secret asks for none (server-everything's own wording).
    expect(fieldsOf({ integer: { type: 'integer', description: 'Your favorite integer (do not give us your phone number, pin, or other sensitive info)' } })).toHaveLength(1);
    expect(fieldsOf({ spinner: { type: 'string', title: 'Spinning top' } })).toHaveLength(1);
  });
});

describe('validateContent', () => {
  const fields = fieldsOf(
    {
      name: { type: 'string', minLength: 2, maxLength: 5 },
      email: { type: 'string', format: 'email' },
      site: { type: 'string', format: 'uri' },
      born: { type: 'string', format: 'date' },
      at: { type: 'string', format: 'date-time' },
      age: { type: 'integer', minimum: 0, maximum: 150 },
      agree: { type: 'boolean' },
      color: { type: 'string', enum: ['r', 'g'] },
      fish: { type: 'array', minItems: 1, maxItems: 2, items: { enum: ['a', 'b', 'c'] } },
    },
    ['name', 'agree'],
  );

  it('passes valid values and drops keys that are no field', () => {
    const check = validateContent(fields, {
      name: 'Ada',
      email: 'ada@example.com',
      site: 'https://example.com/ada',
      born: '1815-12-10',
      at: '2026-11-27T01:00:00Z',
      age: 36,
      agree: true,
      color: 'g',
      fish: ['a', 'c'],
      extra: 'not asked for',
    });
    expect(check).toEqual({
      ok: true,
      content: { name: 'Ada', email: 'ada@example.com', site: 'https://example.com/ada', born: '1815-12-10', at: '2026-11-27T01:00:00Z', age: 36, agree: true, color: 'g', fish: ['a', 'c'] },
    });
  });

  it('names each field that is missing, of the wrong type, out of range, off its choices or badly formatted', () => {
    const check = validateContent(fields, { name: 'A', email: 'ada', site: 'example.com', born: '2025-02-30', at: 'yesterday', age: 36.5, color: 'b', fish: ['a', 'b', 'c'] });
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(Object.fromEntries(check.errors.map((e) => [e.field, e.message]))).toEqual({
      name: 'must be at least 2 characters',
      email: 'is not an email address (name@example.com)',
      site: 'is not a full url (https://…)',
      born: 'is not a date (YYYY-MM-DD)',
      at: 'is not a date and time (YYYY-MM-DDThh:mm:ssZ)',
      age: 'must be a whole number',
      agree: 'is required',
      color: '"b" is not one of the choices',
      fish: 'allows at most 2 choices',
    });
    const more = validateContent(fields, { name: 7, agree: 'yes', age: 200, fish: [] });
    expect(more.ok ? [] : more.errors.map((e) => `${e.field} ${e.message}`)).toEqual(['name must be text', 'age must be at most 150', 'agree must be true or false', 'fish needs at least 1 choice']);
    expect(validateContent(fields, 'text')).toEqual({ ok: false, errors: [{ field: '(content)', message: 'must be an object of field values' }] });
  });
});

describe('a url to open', () => {
  it('allows https (and http on this machine) and names the domain, punycode marked as a possible look-alike', () => {
    expect(checkElicitationUrl('https://example.com/pay?x=1')).toEqual({ ok: true, url: 'https://example.com/pay?x=1', domain: 'example.com', lookAlike: false });
    expect(checkElicitationUrl('http://127.0.0.1:8080/cb')).toMatchObject({ ok: true, domain: '127.0.0.1' });
    expect(checkElicitationUrl('https://аpple.com/login')).toMatchObject({ ok: true, domain: 'xn--pple-43d.com', lookAlike: true });
  });

  it('refuses javascript:, file:, data:, plain http elsewhere, a user in the url, and an over-long url', () => {
    expect(checkElicitationUrl('javascript:alert(1)')).toMatchObject({ ok: false, reason: expect.stringMatching(/scheme "javascript:" is refused/) });
    expect(checkElicitationUrl('file:///etc/passwd')).toMatchObject({ ok: false, reason: expect.stringMatching(/"file:"/) });
    expect(checkElicitationUrl('data:text/html,<b>x</b>')).toMatchObject({ ok: false, reason: expect.stringMatching(/"data:"/) });
    expect(checkElicitationUrl('http://example.com/')).toMatchObject({ ok: false, reason: expect.stringMatching(/plain http is allowed only for this machine/) });
    expect(checkElicitationUrl('https://bank.com@evil.example/')).toMatchObject({ ok: false, reason: expect.stringMatching(/user name or password/) });
    expect(checkElicitationUrl(`https://example.com/${'a'.repeat(2048)}`)).toMatchObject({ ok: false, reason: expect.stringMatching(/at most 2,048/) });
  });
});
