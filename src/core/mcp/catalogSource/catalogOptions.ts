import type { CatalogOptionView } from '../../../shared/mcpCatalog.js';
import { unsupportedTransport } from '../config/transports.js';
import { argSpec, Asked, keyValue, type ArgSpec, type NamedTemplate } from './runSpec.js';
import type { RegistryPackage, RegistryTransport, ServerDetail } from './serverJson.js';

/**
 * The ways to run an entry (docs/rules/catalog.md#from-an-entry-to-a-server):
 * each package becomes a stdio command run by the runner its registry type
 * names (npm: npx, PyPI: uvx, OCI: docker), each remote a streamable HTTP
 * URL; an mcpb package is a bundle installed as a plugin (its address and
 * SHA-256 in `view.bundle`). What ChatOS cannot or will not run is kept,
 * marked with the reason: a bundle without a SHA-256, SSE (ChatOS speaks
 * streamable HTTP only), a package that serves HTTP itself, another registry type, and any
 * package name or version that is not a plain name of its registry (a name
 * with shell characters or a leading "-" is refused, though nothing passes
 * through a shell: it is not a name that registry could hold).
 */

export interface RunOption {
  view: CatalogOptionView;
  asked: Asked;
  /** stdio */
  command?: string;
  args: ArgSpec[];
  env: NamedTemplate[];
  /** streamable HTTP */
  url?: string;
  headers: NamedTemplate[];
}

interface Runner {
  command: string;
  /** The package as the runner names it, pinned to its version. */
  spec(identifier: string, version: string | undefined): string;
  /** Arguments before the package when the entry gives no runtime arguments. */
  defaultArgs: string[];
  /** A valid name in that registry. */
  identifier: RegExp;
  from(pkg: RegistryPackage): string;
}

const VERSION = /^[A-Za-z0-9][A-Za-z0-9.+_-]{0,127}$/;

const RUNNERS = new Map<string, Runner>([
  [
    'npm',
    {
      command: 'npx',
      spec: (id, version) => (version ? `${id}@${version}` : id),
      defaultArgs: ['-y'],
      identifier: /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/,
      from: (pkg) => `the npm package ${pkg.identifier}${pkg.version ? ` ${pkg.version}` : ''} from ${pkg.registryBaseUrl ?? 'https://registry.npmjs.org'}`,
    },
  ],
  [
    'pypi',
    {
      command: 'uvx',
      spec: (id, version) => (version ? `${id}==${version}` : id),
      defaultArgs: [],
      identifier: /^[A-Za-z0-9]([A-Za-z0-9._-]{0,198}[A-Za-z0-9])?$/,
      from: (pkg) => `the PyPI package ${pkg.identifier}${pkg.version ? ` ${pkg.version}` : ''} from ${pkg.registryBaseUrl ?? 'https://pypi.org'}`,
    },
  ],
  [
    'oci',
    {
      command: 'docker',
      // The identifier may carry its tag or digest (current server.json); a version is added only when it does not.
      spec: (id, version) => (version && !/[:@][^/]*$/.test(id) ? `${id}:${version}` : id),
      defaultArgs: ['run', '-i', '--rm'],
      identifier: /^[a-z0-9]+([._-][a-z0-9]+)*(:[0-9]+)?(\/[a-z0-9]+([._-][a-z0-9]+)*)*(:[A-Za-z0-9_][A-Za-z0-9._-]{0,127}|@sha256:[a-f0-9]{64})?$/,
      from: (pkg) => `the container image ${pkg.identifier}${pkg.version ? ` ${pkg.version}` : ''} from ${pkg.registryBaseUrl ?? 'its registry (docker.io unless the name says)'}`,
    },
  ],
]);

const empty = (index: number, kind: CatalogOptionView['kind'], label: string): RunOption => ({
  view: { index, kind, label, installable: true, inputs: [] },
  asked: new Asked(),
  args: [],
  env: [],
  headers: [],
});

function refuse(option: RunOption, reason: string, hint?: string): RunOption {
  option.view = { ...option.view, installable: false, reason, ...(hint ? { hint } : {}) };
  return option;
}

const SHA256 = /^[a-f0-9]{64}$/i;

/**
 * An MCP Bundle: installed as a plugin through the same plan as `chatos install URL`. The registry's fileSha256 is
 * what ties the file fetched to the entry the person chose; without it (the registry requires it for mcpb) anyone who
 * can change the file at that address could change what is installed, so the entry is refused.
 */
function bundleOption(option: RunOption, pkg: RegistryPackage): RunOption {
  const url = URL.canParse(pkg.identifier) ? new URL(pkg.identifier) : undefined;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return refuse(option, `the bundle's address "${pkg.identifier}" is not an http(s) URL`);
  if (url.username || url.password) return refuse(option, "the bundle's address carries a user name or password; ChatOS will not fetch it");
  if (pkg.fileSha256 === undefined || !SHA256.test(pkg.fileSha256))
    return refuse(option, 'the entry names no valid fileSha256 for its bundle, so the file fetched could not be checked', 'ask its publisher to give fileSha256');
  const sha256 = pkg.fileSha256.toLowerCase();
  option.view = {
    ...option.view,
    bundle: { url: url.href, sha256 },
    downloads: `the MCP bundle ${url.href} (SHA-256 ${sha256}, checked before it is unpacked), installed as a plugin that stays untrusted until you trust it`,
  };
  return option;
}

function packageOption(pkg: RegistryPackage, index: number): RunOption {
  const option = empty(index, 'package', `${pkg.registryType} ${pkg.identifier}${pkg.version ? ` ${pkg.version}` : ''}`);
  if (pkg.registryType === 'mcpb') return bundleOption(option, pkg);
  const runner = RUNNERS.get(pkg.registryType);
  if (!runner) return refuse(option, `ChatOS runs npm, PyPI and OCI packages, not "${pkg.registryType}" ones`);
  if (!runner.identifier.test(pkg.identifier)) return refuse(option, `"${pkg.identifier}" is not a valid ${pkg.registryType} package name; ChatOS will not run it`);
  if (pkg.version !== undefined && !VERSION.test(pkg.version)) return refuse(option, `"${pkg.version}" is not a plain version; ChatOS will not run it`);
  if (pkg.runtimeHint !== undefined && pkg.runtimeHint !== runner.command)
    return refuse(option, `it asks to be run by "${pkg.runtimeHint}"; ChatOS runs ${pkg.registryType} packages with ${runner.command} only`);
  if (pkg.transport.type !== 'stdio') return refuse(option, `the package serves ${pkg.transport.type} itself; ChatOS starts packages over stdio`, 'start it yourself and add its URL as a server');

  const { asked } = option;
  const runtime = pkg.runtimeArguments?.length ? pkg.runtimeArguments.map((a, i) => argSpec(a, i, asked)) : runner.defaultArgs.map((a) => ({ template: a }));
  option.env = (pkg.environmentVariables ?? []).map((e) => keyValue(e, 'env', asked));
  // A container gets only the variables named to it: `-e NAME` passes each from docker's own environment.
  const passEnv = pkg.registryType === 'oci' ? option.env.map((e): ArgSpec => ({ flag: '-e', template: e.name })) : [];
  const packageArgs = (pkg.packageArguments ?? []).map((a, i) => argSpec(a, runtime.length + i, asked));
  option.command = runner.command;
  option.args = [...runtime, ...passEnv, { template: runner.spec(pkg.identifier, pkg.version) }, ...packageArgs];
  option.view = { ...option.view, downloads: `${runner.from(pkg)}, by ${runner.command} when it first starts` };
  return option;
}

function remoteOption(remote: RegistryTransport, index: number): RunOption {
  const option = empty(index, 'remote', `${remote.type} ${remote.url ?? ''}`.trim());
  if (remote.type === 'sse') {
    const { message, hint } = unsupportedTransport('sse');
    return refuse(option, message, hint);
  }
  if (remote.type !== 'streamable-http') return refuse(option, `ChatOS connects to remote servers over streamable HTTP, not "${remote.type}"`);
  if (!remote.url || !/^(https?:\/\/\S+|\{[A-Za-z_][A-Za-z0-9_]*\}\S*)$/.test(remote.url)) return refuse(option, 'its URL is not an http(s) URL');
  option.asked.variables({ ...remote, variables: remote.variables });
  option.headers = (remote.headers ?? []).map((h) => keyValue(h, 'header', option.asked));
  option.url = remote.url;
  return option;
}

/** Each package, then each remote, as a way to run the entry. */
export function runOptions(detail: ServerDetail): RunOption[] {
  const options = [...detail.packages.map((p, i) => packageOption(p, i)), ...detail.remotes.map((r, i) => remoteOption(r, detail.packages.length + i))];
  for (const option of options) {
    const shownArgs = option.args.flatMap((a) => [...(a.flag ? [a.flag] : []), a.input !== undefined ? `<${a.input}>` : shown(a.template)]);
    option.view = {
      ...option.view,
      ...(option.command ? { command: option.command, args: shownArgs } : {}),
      ...(option.url ? { url: shown(option.url) } : {}),
      inputs: [...option.asked.inputs.values()],
    };
  }
  return options;
}

/** A template as the plan shows it: `<name>` where a value the person gives goes. */
const shown = (template: string) => template.replace(/\{([A-Za-z_][A-Za-z0-9_]{0,63})\}/g, '<$1>');
