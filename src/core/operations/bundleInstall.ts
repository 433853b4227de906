import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BundleConfigValues, BundlePreview, BundleSignature } from '../../shared/bundles.js';
import type { PluginUpdate } from '../../shared/pluginUpdate.js';
import type { Problem } from '../../shared/problems.js';
import { parseBundleManifest, type BundleManifest } from '../plugins/bundles/bundleManifest.js';
import { BundleRefused, bundlePluginId, bundlePluginJson, bundleSecretName, configFields, previewCommand, resolveConfig } from '../plugins/bundles/bundlePlugin.js';
import { SignatureRefused, verifyBundleSignature } from '../plugins/bundles/bundleSignature.js';
import { InstallError } from '../plugins/installError.js';
import { folderNameFor } from '../plugins/pluginInstaller.js';
import { extractPluginZip, MAX_ZIP_BYTES, ZipRefused } from '../plugins/zipExtract.js';
import { mcpValueSecretName, type SecretStore } from '../secrets/secretStore.js';
import { bundleIdentityOf, deleteBundleSecrets, readBundleRecord, signerOf, writeBundleRecord, type BundleRecord } from './bundleRecord.js';
import type { PluginHost } from './pluginHost.js';
import { installOrUpdate, type InstallOutcome } from './pluginUpdate.js';

/**
 * Installing an MCP Bundle (`.mcpb`, docs/using/bundles.md): the signature is
 * checked over the file's bytes, the archive unpacked by the same guarded
 * extractor plugin zips use (no links, no "..", bounded size and count), the
 * manifest read with mcpb's strict schema, and the bundle becomes a plugin
 * folder (its files plus a generated plugin.json) that goes through the same
 * install, update diff and trust as any plugin. Until every check passes
 * nothing is placed, stored or run.
 */

const MANIFEST = 'manifest.json';

interface UnpackedBundle {
  manifest: BundleManifest;
  signature: BundleSignature;
  /** The unpacked bundle, in a staging folder gone once `use` returns. */
  dir: string;
  pluginId: string;
  /** Where it is installed: `${__dirname}` in its command line. */
  target: string;
}

const refusedProblem = (file: string, pathInFile: string, message: string, hint?: string): Problem => ({
  severity: 'error',
  code: 'BUNDLE_REFUSED',
  file,
  path: pathInFile,
  message,
  ...(hint ? { hint } : {}),
});

function readBundleFile(file: string): Buffer {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile()) throw new InstallError('SOURCE_MISSING', `${file} is not a file`, 'pass a .mcpb file');
  if (stat.size > MAX_ZIP_BYTES) throw new InstallError('ZIP_REFUSED', `${file} is larger than ${MAX_ZIP_BYTES / 1024 / 1024} MiB`, 'a bundle is refused past that size');
  return fs.readFileSync(file);
}

/** Unpacks and checks `file` in a staging folder beside the user root and hands it to `use`. */
async function withUnpackedBundle<T>(file: string, userRoot: string, use: (bundle: UnpackedBundle) => Promise<T>): Promise<T> {
  const from = path.resolve(file);
  const bytes = readBundleFile(from);
  let verified;
  try {
    verified = verifyBundleSignature(bytes);
  } catch (error) {
    if (!(error instanceof SignatureRefused)) throw error;
    throw new InstallError('SIGNATURE_REFUSED', `${from} was refused: ${error.message}`, 'get the bundle again from its publisher', [refusedProblem(from, 'signature', error.message)]);
  }
  fs.mkdirSync(userRoot, { recursive: true });
  const staging = fs.mkdtempSync(path.join(path.dirname(userRoot), '.bundle-'));
  try {
    const zip = path.join(staging, 'bundle.zip');
    // Only the signed bytes are unpacked: what was verified is what is installed.
    fs.writeFileSync(zip, verified.content);
    const dir = path.join(staging, 'bundle');
    try {
      await extractPluginZip(zip, dir);
    } catch (error) {
      const reason = error instanceof ZipRefused ? error.message : `not a readable zip: ${(error as Error).message}`;
      throw new InstallError('ZIP_REFUSED', `${from} was refused: ${reason}`, 'rebuild it with "mcpb pack"', [refusedProblem(from, '', reason)]);
    }
    const manifestFile = path.join(dir, MANIFEST);
    if (!fs.existsSync(manifestFile)) throw new InstallError('INVALID_BUNDLE', `${from} has no ${MANIFEST} at its top`, 'build it with "mcpb pack"', [refusedProblem(from, MANIFEST, 'missing')]);
    const parsed = parseBundleManifest(fs.readFileSync(manifestFile, 'utf8'), `${from}!/${MANIFEST}`);
    if ('problems' in parsed) {
      const first = parsed.problems[0]!;
      throw new InstallError(
        'INVALID_BUNDLE',
        `${from} has an invalid manifest: ${first.path ? `${first.path}: ` : ''}${first.message}`,
        first.hint ?? 'fix manifest.json and pack it again',
        parsed.problems,
      );
    }
    const pluginId = bundlePluginId(parsed.manifest);
    return await use({ manifest: parsed.manifest, signature: verified.signature, dir, pluginId, target: path.join(userRoot, folderNameFor(pluginId)) });
  } catch (error) {
    if (error instanceof BundleRefused)
      throw new InstallError('BUNDLE_REFUSED', `${from} was refused: ${error.field}: ${error.message}`, error.hint, [refusedProblem(`${from}!/${MANIFEST}`, error.field, error.message, error.hint)]);
    throw error;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** What an update over the installed copy may keep: the host's record of it, or nothing for a fresh install. */
interface Keeping {
  /** The record of the installed copy; a record left by an earlier, uninstalled copy is not kept from. */
  record?: BundleRecord;
  /** The installed copy was signed by another certificate, or one of the two is unsigned: its stored secrets are not carried over unasked. */
  signerChanged: boolean;
  /** Both copies unsigned; `sameBundle`: this one has the installed copy's name and author (docs/using/bundles.md#updates). */
  unsigned?: { sameBundle: boolean };
}

function keepingOf(host: PluginHost, pluginId: string, target: string, manifest: BundleManifest, signature: BundleSignature): Keeping {
  const record = fs.existsSync(target) ? readBundleRecord(host.home, pluginId) : undefined;
  if (!record) return { signerChanged: false };
  const signer = signerOf(signature);
  if (record.signer !== signer) return { record, signerChanged: true };
  if (signer !== null) return { record, signerChanged: false };
  // No certificate on either side: any bundle of that name installs as this plugin, so the installed copy's secrets
  // go to it only when it says it is the same bundle and the user agrees. A record without the identity cannot tell.
  const identity = bundleIdentityOf(manifest);
  return { record, signerChanged: false, unsigned: { sameBundle: record.bundle?.name === identity.name && record.bundle.author === identity.author } };
}

/**
 * The settings an install over it keeps: the plain ones, and the stored secrets from the same signer; from another
 * signer, or an unsigned copy claiming to be the same bundle, only when the user said so; never to another unsigned bundle.
 */
function keptOf({ record, signerChanged, unsigned }: Keeping, keepSecrets: boolean): { values: BundleConfigValues; secrets: string[] } {
  if (!record) return { values: {}, secrets: [] };
  if (unsigned?.sameBundle === false) return { values: record.values, secrets: [] };
  const asksTheUser = signerChanged || unsigned !== undefined;
  return { values: record.values, secrets: !asksTheUser || keepSecrets ? record.secrets : [] };
}

/** What installing `file` would show: who made and signed it, what it runs, its tools, the settings it asks for. Nothing is placed. */
export async function previewBundle(host: PluginHost, file: string): Promise<BundlePreview> {
  return withUnpackedBundle(file, host.home.userPluginsDir, async ({ manifest, signature, pluginId, target }) => {
    const { command, env } = previewCommand(manifest, target);
    const keeping = keepingOf(host, pluginId, target, manifest, signature);
    return {
      pluginId,
      name: manifest.display_name ?? manifest.name,
      version: manifest.version,
      description: manifest.description,
      author: manifest.author,
      signature,
      serverType: manifest.server.type,
      command,
      env,
      tools: (manifest.tools ?? []).map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}) })),
      prompts: (manifest.prompts ?? []).map((p) => ({ name: p.name, ...(p.description ? { description: p.description } : {}) })),
      userConfig: configFields(manifest, keptOf(keeping, false)),
      installed: fs.existsSync(target),
      ...(keeping.record && keeping.signerChanged ? { signerChanged: { before: keeping.record.signer, storedSecrets: keeping.record.secrets } } : {}),
      ...(keeping.record && keeping.unsigned ? { unsignedUpdate: { sameBundle: keeping.unsigned.sameBundle, storedSecrets: keeping.record.secrets } } : {}),
    };
  });
}

export type BundleOutcome = InstallOutcome & { signature: BundleSignature };

/**
 * Installs `file` with the settings given (a setting not given keeps what the
 * installed copy had, else its default); over an installed copy only once
 * `confirm` says yes. Sensitive values go to the key store, and only after
 * the plugin is in place. A copy signed by someone else (or unsigned where it
 * was signed, or the other way round), or an unsigned copy over an unsigned
 * one of the same name and author, gets no stored secret of the installed one
 * unless `keepSecrets`; an unsigned copy of another name or author none at
 * all. The ones it does not get are deleted.
 */
export async function installBundle(
  host: PluginHost,
  secrets: SecretStore,
  file: string,
  values: BundleConfigValues,
  confirm: (update: PluginUpdate) => boolean | Promise<boolean>,
  options: { keepSecrets?: boolean } = {},
): Promise<BundleOutcome> {
  return withUnpackedBundle(file, host.home.userPluginsDir, async ({ manifest, signature, dir, pluginId, target }) => {
    const kept = keptOf(keepingOf(host, pluginId, target, manifest, signature), options.keepSecrets === true);
    const config = resolveConfig(manifest, target, values, kept);
    fs.writeFileSync(path.join(dir, 'plugin.json'), `${JSON.stringify(bundlePluginJson(manifest, target, pluginId, config), null, 2)}\n`);
    const outcome = await installOrUpdate(host, dir, confirm);
    if (outcome.kind === 'declined') return { ...outcome, signature };
    for (const [key, value] of config.secrets) await secrets.set(mcpValueSecretName(bundleSecretName(pluginId, key)), value);
    // Stored values no longer used (not carried over, or a setting the bundle dropped), also those of a copy uninstalled before.
    const before = readBundleRecord(host.home, pluginId)?.secrets ?? [];
    await deleteBundleSecrets(
      secrets,
      pluginId,
      before.filter((key) => !config.secretKeys.includes(key)),
    );
    const plain = Object.fromEntries([...config.plain].filter(([key]) => Object.hasOwn(values, key) || Object.hasOwn(kept.values, key)));
    writeBundleRecord(host.home, pluginId, { values: plain, secrets: config.secretKeys, signer: signerOf(signature), bundle: bundleIdentityOf(manifest) });
    return { ...outcome, signature };
  });
}
