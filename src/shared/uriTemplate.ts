/**
 * The part of RFC 6570 resource templates the host fills
 * (docs/using/resources.md#templates): `{name}` (the value percent-encoded,
 * so it stays one path segment) and `{+name}` (reserved characters kept, but
 * never a `..` segment or a backslash, so a value cannot climb out of the
 * template's path). Other operators are refused by name. Pure; the core and
 * the renderer fill templates alike.
 */

const EXPRESSION = /\{([^{}]*)\}/g;
/** A template's expressions, at most: a template of thousands of them is not one to fill. */
const MAX_EXPRESSIONS = 32;

/** The argument names of a template, in order, each once. */
export function templateArguments(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(EXPRESSION)) {
    for (const name of match[1]!.replace(/^[+#./;?&]/, '').split(',')) {
      const clean = name.replace(/[*]$|:\d+$/, '');
      if (clean && !names.includes(clean)) names.push(clean);
      if (names.length >= MAX_EXPRESSIONS) return names;
    }
  }
  return names;
}

export type Expanded = { ok: true; uri: string } | { ok: false; reason: string };

/** The template with each expression filled from `values` (by own key only); a missing, unsafe or unsupported one is refused, saying which. */
export function expandTemplate(template: string, values: Readonly<Record<string, string>>): Expanded {
  let problem: string | undefined;
  let count = 0;
  const uri = template.replace(EXPRESSION, (_whole, body: string) => {
    if (++count > MAX_EXPRESSIONS) problem ??= `the template has more than ${MAX_EXPRESSIONS} expressions`;
    const reserved = body.startsWith('+');
    const name = reserved ? body.slice(1) : body;
    if (!/^[A-Za-z0-9_]+$/.test(name)) {
      problem ??= `the template's expression {${body}} is not one the host fills (only {name} and {+name})`;
      return '';
    }
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (typeof value !== 'string' || value === '') {
      problem ??= `"${name}" has no value: fill it in`;
      return '';
    }
    if (!reserved) return encodeURIComponent(value);
    if (value.split('/').includes('..') || value.includes('\\')) {
      problem ??= `"${name}" may not contain a ".." segment or a backslash`;
      return '';
    }
    return encodeURI(value);
  });
  return problem === undefined ? { ok: true, uri } : { ok: false, reason: problem };
}
