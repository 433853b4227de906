import type { McpServerInput, NamedValueInput } from '../../../shared/mcpAdmin.js';
import { CatalogError } from './catalogError.js';
import type { RunOption } from './catalogOptions.js';
import { fill, type NamedTemplate, type ValueSpec } from './runSpec.js';

/**
 * A way to run an entry, with the person's values, as the server input the
 * MCP servers page's add form sends (McpServerInputSchema): from here on it
 * is a typed server like any other, added through the same checks, with
 * the same trust and grants. A value that is secret, or an environment
 * variable or header built from one, goes to the key store, never into
 * mcp.yaml.
 */
export function serverInputOf(option: RunOption, serverName: string, given: ReadonlyMap<string, string>): McpServerInput {
  const { inputs } = option.asked;
  const unknown = [...given.keys()].filter((name) => !inputs.has(name));
  if (unknown.length) throw new CatalogError('CATALOG_VALUES', `this entry does not ask for ${unknown.map((n) => `"${n}"`).join(', ')}`, `it asks for: ${[...inputs.keys()].join(', ') || 'nothing'}`);
  const value = (name: string): string | undefined => {
    const input = inputs.get(name);
    if (!input) return undefined;
    const text = given.get(name);
    return text !== undefined && text !== '' ? text : input.default;
  };
  const missing = [...inputs.values()].filter((input) => input.required && !value(input.name));
  if (missing.length)
    throw new CatalogError(
      'CATALOG_VALUES',
      `a value is needed for ${missing.map((i) => `${i.name}${i.description ? ` (${i.description})` : ''}`).join(', ')}`,
      'give each required value (chatos catalog add NAME --set NAME=VALUE)',
    );
  for (const input of inputs.values()) {
    const chosen = value(input.name);
    if (chosen && input.choices && !input.choices.includes(chosen)) throw new CatalogError('CATALOG_VALUES', `${input.name} must be one of ${input.choices.join(', ')}`);
  }

  /** An asked value left empty (an optional one) leaves its argument, variable or header out. */
  const leftOut = (spec: ValueSpec) => spec.input !== undefined && !value(spec.input);
  const text = (spec: ValueSpec) => (spec.input !== undefined ? value(spec.input)! : fill(spec.template, value));
  const values = (list: NamedTemplate[]): NamedValueInput[] =>
    list
      .filter((item) => !leftOut(item))
      .map((item) => ({ key: item.name, value: option.asked.isSecret(item) ? { kind: 'secret' as const, value: text(item) } : { kind: 'text' as const, text: text(item) } }));

  if (option.command !== undefined) {
    const args = option.args.filter((a) => !leftOut(a)).flatMap((a) => [...(a.flag ? [a.flag] : []), text(a)]);
    return { name: serverName, transport: 'stdio', command: option.command, args, env: values(option.env) };
  }
  return { name: serverName, transport: 'streamable_http', url: fill(option.url!, value), headers: values(option.headers) };
}
