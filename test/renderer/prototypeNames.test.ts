import { describe, expect, it } from 'vitest';
import { checkJsonSchema, resolveRef } from '../../renderer/src/components/playground/jsonSchemaCheck.js';
import { groupByDomain } from '../../renderer/src/components/servers/toolDomains.js';
import { ownValue } from '../../renderer/src/api/ownValue.js';

/** What the UI reads by names that plugins and servers chose: Object.prototype's members are names like any other. */
describe('the renderer, reading host data keyed by outside names', () => {
  it('groups tools whose declared domain is a prototype member under that word, not under Object.prototype’s member', () => {
    const groups = groupByDomain([{ domain: 'constructor' }, { domain: '__proto__' }, { domain: 'constructor' }, {}]);
    expect(groups.map((g) => [g.domain, g.tools.length])).toEqual([
      ['constructor', 2],
      ['__proto__', 1],
      ['other', 1],
    ]);
  });

  it('finds no visible set for an app id that is a prototype member unless the host sent one', () => {
    const visible = { chatos: { servers: ['a'], prompts: [] } };
    expect(ownValue(visible, 'constructor')).toBeUndefined();
    expect(ownValue({ ...visible, constructor: { servers: ['b'], prompts: [] } }, 'constructor')?.servers).toEqual(['b']);
  });

  it("checks a tool's arguments against its schema by own keys only", () => {
    const schema = { type: 'object', properties: { text: { type: 'string' } }, required: ['constructor', 'toString'], additionalProperties: false };
    const issues = checkJsonSchema(schema, { valueOf: 1 });
    expect(issues.filter((i) => i.keyword === 'required').map((i) => i.params)).toEqual([{ property: 'constructor' }, { property: 'toString' }]);
    expect(issues.some((i) => i.keyword === 'additionalProperties')).toBe(true);
    expect(resolveRef({ definitions: {} }, '#/definitions/constructor')).toBeUndefined();
  });
});
