import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { downloadBundle } from '../../core/facades/plugins.js';
import { ApiFailure } from '../apiErrors.js';
import type { OpenedBundles } from './openedBundles.js';
import type { HandlerContext, Handlers } from './types.js';
import { StagedUploads } from './stagedUploads.js';

/** A bundle picked or dropped in the window: held in memory while uploading, so smaller than what `chatos install` reads from disk. */
export const MAX_BUNDLE_UPLOAD_BYTES = 64 * 1024 * 1024;

/**
 * The Apps page's installs from a file (docs/using/bundles.md): the page
 * uploads an MCP Bundle or a plugin's .zip in parts (or names a bundle's
 * URL, which the host fetches into the same place), is shown the preview,
 * then installs; a bundle the desktop was asked to open waits in `opened`
 * until the window takes it. The core does every check, as for `chatos install`; the
 * bytes only pass through a private temporary file it reads.
 */
export function bundleHandlers(
  { host, emit }: HandlerContext,
  opened: OpenedBundles,
): Handlers<
  | 'plugins.bundleUploadPart'
  | 'plugins.bundlePreview'
  | 'plugins.installBundle'
  | 'plugins.bundleFromUrl'
  | 'plugins.bundleFromCatalog'
  | 'plugins.takeOpenedBundle'
  | 'plugins.zipPreview'
  | 'plugins.installZip'
> {
  const uploads = new StagedUploads({
    maxFileBytes: MAX_BUNDLE_UPLOAD_BYTES,
    tooLarge: (_declared, name) => new ApiFailure('INVALID', `${name ?? 'the bundle'} is larger than ${MAX_BUNDLE_UPLOAD_BYTES / 1024 / 1024} MiB`, 'install it with "chatos install FILE.mcpb"'),
  });
  /** Runs `use` on the bytes as a file only this user can read, removed afterwards. */
  const asFile = async <T>(bytes: Buffer, use: (file: string) => Promise<T>, extension = '.mcpb'): Promise<T> => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-bundle-'));
    try {
      const file = path.join(dir, `upload${extension}`);
      fs.writeFileSync(file, bytes, { mode: 0o600 });
      return await use(file);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  const changed = async () => {
    await host.plugins.rescanAndReload();
    emit({ type: 'plugins.changed', reread: [], removed: [], problems: host.plugins.catalog.problems.length });
  };
  /** A bundle by address: fetched as `chatos install URL` fetches it (bounded, http(s) only, to `sha256` when given), then held like an upload. */
  const fetched = async (uploadId: string, url: string, sha256?: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-bundle-url-'));
    try {
      const bytes = fs.readFileSync(await downloadBundle(url, dir, sha256 !== undefined ? { sha256 } : {}));
      uploads.append(uploadId, 0, bytes.toString('base64'), bytes.length, 'download.mcpb');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    return asFile(uploads.peek(uploadId), (file) => host.plugins.previewBundle(file));
  };
  return {
    'plugins.bundleFromUrl': ({ uploadId, url }) => fetched(uploadId, url),
    // The core picks the entry's bundle (refusing one without a SHA-256); the download must have the digest it names.
    'plugins.bundleFromCatalog': async ({ uploadId, entry }) => {
      const bundle = await host.catalog.bundle(entry);
      if (!bundle) throw new ApiFailure('INVALID', `that way to run ${entry.name} is not an MCP bundle`, 'add it with catalog.add');
      return fetched(uploadId, bundle.url, bundle.sha256);
    },
    // A file the desktop was asked to open: held like an upload, shown as a dropped one is; a refused one says why.
    'plugins.takeOpenedBundle': async ({ uploadId }) => {
      const next = opened.take();
      if (!next) return { opened: null };
      if (!next.ok) throw new ApiFailure('INVALID', next.message, next.hint);
      uploads.append(uploadId, 0, next.bytes.toString('base64'), next.bytes.length, next.name);
      return { opened: { fileName: next.name, preview: await asFile(uploads.peek(uploadId), (file) => host.plugins.previewBundle(file)) } };
    },
    'plugins.zipPreview': ({ uploadId }) => asFile(uploads.peek(uploadId), (file) => host.plugins.previewInstall(file), '.zip'),
    'plugins.installZip': async ({ uploadId, update }) => {
      const installed = await asFile(uploads.peek(uploadId), (file) => host.plugins.install(file, { update }), '.zip');
      uploads.take(uploadId);
      await changed();
      return { pluginId: installed.pluginId, dir: installed.dir, leftOut: installed.leftOut, updated: installed.updated };
    },
    'plugins.bundleUploadPart': ({ uploadId, offset, data, name, size }) => ({ received: uploads.append(uploadId, offset, data, size, name) }),
    'plugins.bundlePreview': ({ uploadId }) => asFile(uploads.peek(uploadId), (file) => host.plugins.previewBundle(file)),
    'plugins.installBundle': async ({ uploadId, config, update, keepSecrets }) => {
      const outcome = await asFile(uploads.peek(uploadId), (file) => host.plugins.installBundle(file, config, () => update, { keepSecrets }));
      if (outcome.kind === 'declined') throw new ApiFailure('INVALID', `${outcome.update.pluginId} is already installed`, 'install it again as an update');
      uploads.take(uploadId);
      await changed();
      return { pluginId: outcome.installed.pluginId, dir: outcome.installed.dir, updated: outcome.kind === 'updated' };
    },
  };
}
