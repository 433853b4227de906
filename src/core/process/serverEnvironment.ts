import { ServerEnvNameSchema } from '../../shared/mcp.js';

/**
 * What of the host's environment a server (or a plugin backend) inherits.
 *
 * The original specification has servers inherit the host's whole environment (docs/rules/mcp-yaml.md#environment-and-headers); the SDK passes
 * only a handful of variables (`getDefaultEnvironment`), so no API key or
 * token of the user's shell reaches a server unless named. ChatOS keeps that
 * small default, adding what real servers need to work as they do in a
 * terminal and which holds no secret of its own: locale and time zone, the
 * temp folder, the user's name, the XDG folders, the proxy settings (both
 * spellings) and extra CA certificates. An mcp.yaml server may ask for more
 * (`inheritEnv: [NAME, …]`) or for everything (`inheritEnv: true`); a plugin
 * may not: what a plugin's process gets is exactly this list plus the
 * literal values its plugin.json sets, which the trust run plan shows.
 */

/**
 * The SDK's own lists (`DEFAULT_INHERITED_ENV_VARS`), per system: the SDK
 * exports only the one of the system it runs on, and both are needed to
 * compute (and test) either.
 */
const SDK_DEFAULTS: Readonly<Record<'posix' | 'win32', readonly string[]>> = {
  posix: ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'],
  win32: ['APPDATA', 'HOMEDRIVE', 'HOMEPATH', 'LOCALAPPDATA', 'PATH', 'PROCESSOR_ARCHITECTURE', 'SYSTEMDRIVE', 'SYSTEMROOT', 'TEMP', 'USERNAME', 'USERPROFILE', 'PROGRAMFILES'],
};

/** Beyond the SDK's list, by exact name (on Windows without regard to case). */
const EXTRA_NAMES = [
  // locale and time zone
  'LANG',
  'LANGUAGE',
  'TZ',
  // temp folders
  'TMPDIR',
  'TEMP',
  'TMP',
  // who
  'USER',
  'LOGNAME',
  // XDG base folders
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_STATE_HOME',
  'XDG_CACHE_HOME',
  'XDG_RUNTIME_DIR',
  'XDG_CONFIG_DIRS',
  'XDG_DATA_DIRS',
  // proxies: programs read either spelling
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'all_proxy',
  // extra CA certificates (Node, OpenSSL, Python requests)
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
];

/** Families inherited by prefix: `LC_ALL`, `LC_CTYPE`, `LC_TIME`, … */
const EXTRA_PREFIXES = ['LC_'];

const isWindows = (platform: NodeJS.Platform) => platform === 'win32';
const sdkDefaults = (platform: NodeJS.Platform) => SDK_DEFAULTS[isWindows(platform) ? 'win32' : 'posix'];

/** The names every server and backend inherits from the host when set, as docs/reference/environment.md#what-a-server-inherits and the run plan list them (`LC_*` for the family). */
export function inheritedEnvNames(platform: NodeJS.Platform = process.platform): string[] {
  return [...new Set([...sdkDefaults(platform), ...EXTRA_NAMES, ...EXTRA_PREFIXES.map((prefix) => `${prefix}*`)])];
}

/** This system's list. */
export const INHERITED_ENV_NAMES: readonly string[] = inheritedEnvNames();

/** `inheritEnv` of an mcp.yaml server: more names, or the whole environment. */
export type InheritEnv = true | readonly string[];

/** Whether a host variable is passed on by default (Windows names are case-insensitive: `Path`, `Temp`). */
export function inheritedByDefault(name: string, platform: NodeJS.Platform = process.platform): boolean {
  const key = isWindows(platform) ? name.toUpperCase() : name;
  const same = (listed: string) => (isWindows(platform) ? listed.toUpperCase() === key : listed === key);
  return sdkDefaults(platform).some(same) || EXTRA_NAMES.some(same) || EXTRA_PREFIXES.some((prefix) => key.startsWith(prefix));
}

/** Sets a key as data: an environment name such as `__proto__` stays a plain key. */
function put(env: Record<string, string>, key: string, value: string): void {
  Object.defineProperty(env, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * The complete environment of a server or backend process: the host's
 * variables it inherits (see above, plus `inherit`), then `extra` (the
 * config's own values) over them. A value starting with `()` is a shell
 * function exported by bash, skipped as the SDK skips it.
 */
export function serverEnvironment(
  hostEnv: NodeJS.ProcessEnv,
  inherit: InheritEnv | undefined,
  extra: Readonly<Record<string, string>>,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const named = inherit === true || inherit === undefined ? undefined : new Set(inherit.map((name) => (isWindows(platform) ? name.toUpperCase() : name)));
  const wanted = (name: string) => inherit === true || inheritedByDefault(name, platform) || (named?.has(isWindows(platform) ? name.toUpperCase() : name) ?? false);
  const env: Record<string, string> = {};
  for (const name of Object.keys(hostEnv)) {
    const value = hostEnv[name];
    if (typeof value !== 'string' || value.startsWith('()') || !wanted(name)) continue;
    put(env, name, value);
  }
  for (const [name, value] of Object.entries(extra)) {
    // Checked again here, where every server and backend is started, whatever config the name came from.
    if (!ServerEnvNameSchema.safeParse(name).success)
      throw new Error(`the environment variable name ${JSON.stringify(name)} holds "=" or NUL: a name ends at "=", so it would set another variable; rename it`);
    // On Windows `Path` and `PATH` are one variable: the config's spelling replaces the host's, never sits beside it.
    if (isWindows(platform)) for (const key of Object.keys(env)) if (key !== name && key.toUpperCase() === name.toUpperCase()) delete env[key];
    put(env, name, value);
  }
  return env;
}

/** The host's variables (INHERITED_ENV_NAMES) a process inherits beside the ones it sets (`names`), which win. */
export function inheritedBeside(names: readonly string[]): string[] {
  // Windows names are case-insensitive; elsewhere http_proxy and HTTP_PROXY are two variables.
  const key = (name: string) => (process.platform === 'win32' ? name.toUpperCase() : name);
  const overridden = new Set(names.map(key));
  return INHERITED_ENV_NAMES.filter((name) => !overridden.has(key(name)));
}
