import { describe, expect, it } from 'vitest';
import { expandTemplate, templateArguments } from '../../../src/shared/uriTemplate.js';

describe('resource templates', () => {
  it('names their arguments once each, in order', () => {
    expect(templateArguments('file:///{+path}/{name}.{ext}')).toEqual(['path', 'name', 'ext']);
    expect(templateArguments('demo://x/{a}/{a}')).toEqual(['a']);
  });

  it('encodes a simple value as one segment, so it cannot climb out of the path', () => {
    expect(expandTemplate('demo://docs/{name}', { name: '../../etc/passwd' })).toEqual({ ok: true, uri: 'demo://docs/..%2F..%2Fetc%2Fpasswd' });
  });

  it('keeps the slashes of a reserved value but refuses a ".." segment or a backslash', () => {
    expect(expandTemplate('file:///srv/{+path}', { path: 'a/b c' })).toEqual({ ok: true, uri: 'file:///srv/a/b%20c' });
    expect(expandTemplate('file:///srv/{+path}', { path: 'a/../../etc' })).toEqual({ ok: false, reason: '"path" may not contain a ".." segment or a backslash' });
    expect(expandTemplate('file:///srv/{+path}', { path: '..\\x' }).ok).toBe(false);
  });

  it('refuses a missing value, an inherited one, and operators it does not fill', () => {
    expect(expandTemplate('demo://{id}', {})).toEqual({ ok: false, reason: '"id" has no value: fill it in' });
    expect(expandTemplate('demo://{toString}', {}).ok).toBe(false);
    expect(expandTemplate('demo://x{?q}', { q: '1' })).toEqual({ ok: false, reason: "the template's expression {?q} is not one the host fills (only {name} and {+name})" });
  });
});
