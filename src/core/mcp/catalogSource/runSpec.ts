import type { CatalogInputView } from '../../../shared/mcpCatalog.js';
import type { RegistryArgument, RegistryInput, RegistryInputWithVariables, RegistryKeyValue } from './serverJson.js';

/**
 * How one way to run an entry is put together from what the registry wrote
 * (docs/rules/catalog.md#from-an-entry-to-a-server): templates with `{name}`
 * where a value the person gives goes, and the values asked for. Pure: the
 * same entry gives the same plan, and nothing here runs anything.
 */

/**
 * A value: as the registry wrote it (`template`, its variables in `{name}`),
 * or the whole of it asked for (`input`, any name an env var or header may have).
 */
export type ValueSpec = { template: string; input?: undefined } | { input: string; template?: undefined };

/** One argument: an optional flag and its value; left out when the value is an optional input left empty. */
export type ArgSpec = { flag?: string } & ValueSpec;

export type NamedTemplate = { name: string } & ValueSpec;

/** The values an option asks for, by name, in the order first met; the first of a name wins. */
export class Asked {
  readonly inputs = new Map<string, CatalogInputView>();

  add(name: string, kind: CatalogInputView['kind'], input: RegistryInput, note?: string): void {
    if (this.inputs.has(name)) return;
    this.inputs.set(name, {
      name,
      kind,
      required: input.isRequired === true,
      secret: input.isSecret === true,
      ...(input.description ? { description: input.description } : {}),
      ...(input.default !== undefined ? { default: input.default } : {}),
      ...(input.placeholder ? { placeholder: input.placeholder } : {}),
      ...(input.choices?.length ? { choices: input.choices } : {}),
      ...(note ? { note } : {}),
    });
  }

  /** A value's variables (`{name}` in it) are asked for as variables. */
  variables(of: RegistryInputWithVariables): void {
    for (const [name, input] of of.variables) this.add(name, 'variable', input);
  }

  /** Whether a value is, or is built from, a secret input. */
  isSecret(spec: ValueSpec): boolean {
    const names = spec.input !== undefined ? [spec.input] : referencedNames(spec.template);
    return names.some((name) => this.inputs.get(name)?.secret === true);
  }
}

const REFERENCE = /\{([A-Za-z_][A-Za-z0-9_]{0,63})\}/g;

export function referencedNames(template: string): string[] {
  return [...template.matchAll(REFERENCE)].map((m) => m[1]!);
}

/** `{name}` replaced by `value(name)`; a name it has no value for stays as written (as the registry's format says). */
export function fill(template: string, value: (name: string) => string | undefined): string {
  return template.replace(REFERENCE, (whole, name: string) => value(name) ?? whole);
}

/** An argument as a template, its value asked for when the registry gave none. */
export function argSpec(argument: RegistryArgument, index: number, asked: Asked): ArgSpec {
  asked.variables(argument);
  const note = argument.isSecret ? 'an argument is part of the command line: it is written into mcp.yaml as text, not into the key store' : undefined;
  if (argument.type === 'named') {
    if (argument.value !== undefined) return { flag: argument.name, template: argument.value };
    const name = argument.name.replace(/^-+/, '') || `arg${index}`;
    asked.add(name, 'argument', argument, note);
    return { flag: argument.name, input: name };
  }
  if (argument.value !== undefined) return { template: argument.value };
  const name = argument.valueHint ?? `arg${index}`;
  asked.add(name, 'argument', argument, note);
  return { input: name };
}

/** An environment variable or header: its fixed value (with variables), or a value asked for under its own name. */
export function keyValue(entry: RegistryKeyValue, kind: 'env' | 'header', asked: Asked): NamedTemplate {
  asked.variables(entry);
  if (entry.value !== undefined) return { name: entry.name, template: entry.value };
  asked.add(entry.name, kind, entry);
  return { name: entry.name, input: entry.name };
}
