import * as os from 'node:os';
import * as path from 'node:path';
import type { BundleConfigField, BundleConfigValues } from '../../../shared/bundles.js';
import type { BundleManifest } from './bundleManifest.js';

/**
 * An MCP Bundle as a ChatOS plugin (docs/using/bundles.md): one app that is
 * the bundle's server alone, run as `node <entry_point> <args>` (or python),
 * so the host's own Node runs a node bundle as it runs any plugin server.
 * Pure: the installer does the disk and the key store.
 */

/** A bundle the host will not install, with the manifest field (or `user_config.<key>`) that is why. */
export class BundleRefused extends Error {
  constructor(
    readonly field: string,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

type UserConfig = NonNullable<BundleManifest['user_config']>;
type ConfigOption = UserConfig[string];

const SAFE_ID = /[^A-Za-z0-9._-]/g;

/** `mcpb.<name>`: a bundle's plugin id, apart from every hand-written plugin's. */
export function bundlePluginId(manifest: BundleManifest): string {
  return `mcpb.${
    manifest.name
      .replace(SAFE_ID, '_')
      .replace(/^[._-]+/, '')
      .slice(0, 100) || 'bundle'
  }`;
}

/** The key-store name of a sensitive value (`{ secret: NAME }` in the plugin's env). */
export const bundleSecretName = (pluginId: string, key: string) => `${pluginId}.${key}`;

const KEY = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

function options(manifest: BundleManifest): [string, ConfigOption][] {
  const entries = Object.entries(manifest.user_config ?? {});
  for (const [key] of entries) if (!KEY.test(key)) throw new BundleRefused(`user_config.${key}`, `user_config key "${key}" is not a plain name`, 'use letters, digits, "_" or "-"');
  return entries;
}

/** The fields the install asks for, with what an earlier install kept. */
export function configFields(manifest: BundleManifest, kept: { values: BundleConfigValues; secrets: readonly string[] }): BundleConfigField[] {
  const keptValues = new Map(Object.entries(kept.values));
  return options(manifest).map(([key, option]) => ({
    key,
    type: option.type,
    title: option.title,
    description: option.description,
    required: option.required ?? false,
    sensitive: option.sensitive ?? false,
    multiple: option.multiple ?? false,
    ...(option.default !== undefined ? { default: option.default } : {}),
    ...(option.min !== undefined ? { min: option.min } : {}),
    ...(option.max !== undefined ? { max: option.max } : {}),
    ...(!option.sensitive && keptValues.has(key) ? { previous: keptValues.get(key)! } : {}),
    ...(option.sensitive && kept.secrets.includes(key) ? { kept: true } : {}),
  }));
}

/** `${HOME}`, `${__dirname}` and the rest mcpb defines, beside `user_config.<key>`. */
function systemVariables(dir: string): Map<string, string> {
  const home = os.homedir();
  return new Map([
    ['__dirname', dir],
    ['HOME', home],
    ['DESKTOP', path.join(home, 'Desktop')],
    ['DOCUMENTS', path.join(home, 'Documents')],
    ['DOWNLOADS', path.join(home, 'Downloads')],
    ['/', path.sep],
    ['pathSeparator', path.sep],
  ]);
}

const VARIABLE = /\$\{([^}]+)\}/g;
const HAS_VARIABLE = /\$\{[^}]+\}/;

/** Replaces `${name}` from `variables`; a name it lacks is left as written (mcpb does the same). */
function substitute(text: string, variables: ReadonlyMap<string, string>): string {
  return text.replace(VARIABLE, (whole, name: string) => variables.get(name) ?? whole);
}

function checkedValue(key: string, option: ConfigOption, value: string): string {
  const field = `user_config.${key}`;
  if (option.type === 'number') {
    const number = Number(value);
    if (value.trim() === '' || !Number.isFinite(number)) throw new BundleRefused(field, `${option.title} must be a number, not "${value}"`);
    if (option.min !== undefined && number < option.min) throw new BundleRefused(field, `${option.title} must be at least ${option.min}`);
    if (option.max !== undefined && number > option.max) throw new BundleRefused(field, `${option.title} must be at most ${option.max}`);
  }
  if (option.type === 'boolean' && value !== 'true' && value !== 'false') throw new BundleRefused(field, `${option.title} must be true or false, not "${value}"`);
  return value;
}

export interface ResolvedConfig {
  /** Values written into the plugin's command line or env. */
  plain: Map<string, string | string[]>;
  /** Sensitive values for the key store (a kept one is not in here: it stays stored). */
  secrets: Map<string, string>;
  /** Sensitive keys with a value, given now or kept. */
  secretKeys: string[];
}

/** The values to install with: given, else kept from before, else the default; a required one missing is refused. */
export function resolveConfig(manifest: BundleManifest, dir: string, given: BundleConfigValues, kept: { values: BundleConfigValues; secrets: readonly string[] }): ResolvedConfig {
  const givenValues = new Map(Object.entries(given));
  const keptValues = new Map(Object.entries(kept.values));
  const system = systemVariables(dir);
  const resolved: ResolvedConfig = { plain: new Map(), secrets: new Map(), secretKeys: [] };
  const known = new Set(options(manifest).map(([key]) => key));
  for (const key of givenValues.keys()) if (!known.has(key)) throw new BundleRefused(`user_config.${key}`, `the bundle has no setting "${key}"`, `its settings: ${[...known].join(', ') || 'none'}`);
  for (const [key, option] of options(manifest)) {
    const field = `user_config.${key}`;
    const raw = givenValues.get(key);
    if (option.sensitive) {
      if (Array.isArray(raw)) throw new BundleRefused(field, `${option.title} is one secret value, not a list`);
      if (raw !== undefined && raw !== '') {
        resolved.secrets.set(key, checkedValue(key, option, raw));
        resolved.secretKeys.push(key);
      } else if (kept.secrets.includes(key)) resolved.secretKeys.push(key);
      else if (option.required) throw new BundleRefused(field, `${option.title} is required`, `give it with --config ${key}=VALUE (it goes to the key store)`);
      continue;
    }
    const fallback = option.default === undefined ? undefined : Array.isArray(option.default) ? option.default : String(option.default);
    const value = raw !== undefined && raw !== '' ? raw : (keptValues.get(key) ?? fallback);
    if (value === undefined || (Array.isArray(value) && value.length === 0 && option.required)) {
      if (option.required) throw new BundleRefused(field, `${option.title} is required`, `give it with --config ${key}=VALUE`);
      continue;
    }
    if (Array.isArray(value) && !option.multiple) throw new BundleRefused(field, `${option.title} takes one value, not a list`);
    const values = (Array.isArray(value) ? value : [value]).map((v) => checkedValue(key, option, substitute(v, system)));
    resolved.plain.set(key, option.multiple ? values : values[0]!);
  }
  return resolved;
}

export interface BundleServer {
  command: string;
  /** The entry point, relative to the bundle folder. */
  entry: string;
  /** The arguments after the entry, as written (variables unreplaced). */
  args: string[];
  env: Record<string, string>;
}

const RUNTIMES = new Map([
  ['node', ['node']],
  ['python', ['python', 'python3']],
]);

/** The bundle's server as `command entry args`, with the platform's override applied; refused when ChatOS cannot run it so. */
export function bundleServer(manifest: BundleManifest): BundleServer {
  const { server } = manifest;
  const runtimes = RUNTIMES.get(server.type);
  if (!runtimes) throw new BundleRefused('server.type', `a "${server.type}" server is not one ChatOS installs yet (node or python)`, 'ask for a node or python build of the bundle');
  const override = Object.entries(server.mcp_config.platform_overrides ?? {}).find(([platform]) => platform === process.platform)?.[1];
  const command = override?.command ?? server.mcp_config.command;
  const args = override?.args ?? server.mcp_config.args ?? [];
  const env = { ...server.mcp_config.env, ...override?.env };
  if (!runtimes.includes(command)) throw new BundleRefused('server.mcp_config.command', `a ${server.type} server runs with ${runtimes.join(' or ')}, not "${command}"`);
  const entry = path.posix.normalize(server.entry_point);
  // normalize leaves a bare ".." as it is: it is outside too, though it does not start with "../".
  if (entry === '..' || entry.startsWith('../') || path.posix.isAbsolute(entry)) throw new BundleRefused('server.entry_point', `entry_point "${server.entry_point}" is outside the bundle`);
  const first = args[0] === undefined ? undefined : path.posix.normalize(args[0].replace('${__dirname}', '.'));
  if (first !== entry) throw new BundleRefused('server.mcp_config.args', `the first argument must be the entry point "\${__dirname}/${entry}", not ${JSON.stringify(args[0] ?? null)}`);
  return { command, entry, args: args.slice(1), env };
}

const USER_VALUE = /^\$\{user_config\.([^}]+)\}$/;

/** Sensitive keys a text names; a sensitive value anywhere but a whole env value is refused (a command line is visible to every process). */
function sensitiveIn(text: string, sensitive: ReadonlySet<string>): string[] {
  return [...text.matchAll(VARIABLE)].map((m) => m[1]!.replace(/^user_config\./, '')).filter((name) => sensitive.has(name));
}

/** The plugin.json that makes an unpacked bundle at `dir` a plugin. */
export function bundlePluginJson(manifest: BundleManifest, dir: string, pluginId: string, config: ResolvedConfig): Record<string, unknown> {
  const server = bundleServer(manifest);
  const sensitive = new Set(options(manifest).flatMap(([key, option]) => (option.sensitive ? [key] : [])));
  const variables = systemVariables(dir);
  for (const [key, value] of config.plain) if (!Array.isArray(value)) variables.set(`user_config.${key}`, value);
  const args = server.args.flatMap((arg, index) => {
    if (sensitiveIn(arg, sensitive).length)
      throw new BundleRefused(
        `server.mcp_config.args[${index + 1}]`,
        `the sensitive setting ${sensitiveIn(arg, sensitive).join(', ')} would be written on the command line`,
        'pass it in server.mcp_config.env instead',
      );
    const whole = USER_VALUE.exec(arg)?.[1];
    const list = whole === undefined ? undefined : config.plain.get(whole);
    // A `multiple` field given as a whole argument expands to one argument per value, as mcpb does.
    return Array.isArray(list) ? list : [substitute(arg, variables)];
  });
  const env: Record<string, string | { secret: string }> = {};
  for (const [name, value] of Object.entries(server.env)) {
    const whole = USER_VALUE.exec(value)?.[1];
    let resolved: string | { secret: string } | undefined;
    if (whole !== undefined && sensitive.has(whole)) resolved = config.secretKeys.includes(whole) ? { secret: bundleSecretName(pluginId, whole) } : undefined;
    else if (sensitiveIn(value, sensitive).length)
      throw new BundleRefused(`server.mcp_config.env.${name}`, `the sensitive setting is part of a longer value; ChatOS passes a sensitive value whole`, `set ${name} to "\${user_config.KEY}" alone`);
    else resolved = substitute(value, variables);
    // A setting left empty is left out, so the server sees it unset rather than "${user_config.x}".
    if (resolved !== undefined && !(typeof resolved === 'string' && HAS_VARIABLE.test(resolved)))
      Object.defineProperty(env, name, { value: resolved, enumerable: true, writable: true, configurable: true });
  }
  return {
    manifestVersion: 1,
    id: pluginId,
    name: manifest.display_name ?? manifest.name,
    version: manifest.version,
    description: manifest.description,
    apps: [
      {
        id: 'server',
        name: manifest.display_name ?? manifest.name,
        description: manifest.description,
        ai: { mcp: { entry: server.entry, command: server.command, args, env, allowMain: true, description: manifest.description } },
      },
    ],
  };
}

/** The command line the preview shows: the bundle folder in place, the settings as `${user_config.…}`. */
export function previewCommand(manifest: BundleManifest, dir: string): { command: string[]; env: { name: string; value: string }[] } {
  const server = bundleServer(manifest);
  const system = systemVariables(dir);
  return {
    command: [server.command, path.join(dir, server.entry), ...server.args.map((arg) => substitute(arg, system))],
    env: Object.entries(server.env).map(([name, value]) => ({ name, value: substitute(value, system) })),
  };
}
