import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiFailure } from '../apiErrors.js';
import type { HandlerContext, Handlers } from './types.js';
import { StagedUploads } from './stagedUploads.js';

/** A bundle picked or dropped in the window: held in memory while uploading, so smaller than what `chatos install` reads from disk. */
const MAX_BUNDLE_UPLOAD_BYTES = 64 * 1024 * 1024;

/**
 * The Apps page's MCP Bundle install (docs/using/bundles.md): the page
 * uploads the file in parts, is shown the preview, then installs with the
 * settings the user gave. The core does every check; the bytes only pass
 * through a private temporary file it reads.
 */
export function bundleHandlers({ host, emit }: HandlerContext): Handlers<'plugins.bundleUploadPart' | 'plugins.bundlePreview' | 'plugins.installBundle'> {
  const uploads = new StagedUploads({
    maxFileBytes: MAX_BUNDLE_UPLOAD_BYTES,
    tooLarge: (_declared, name) => new ApiFailure('INVALID', `${name ?? 'the bundle'} is larger than ${MAX_BUNDLE_UPLOAD_BYTES / 1024 / 1024} MiB`, 'install it with "chatos install FILE.mcpb"'),
  });
  /** Runs `use` on the bytes as a file only this user can read, removed afterwards. */
  const asFile = async <T>(bytes: Buffer, use: (file: string) => Promise<T>): Promise<T> => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-bundle-'));
    try {
      const file = path.join(dir, 'upload.mcpb');
      fs.writeFileSync(file, bytes, { mode: 0o600 });
      return await use(file);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  return {
    'plugins.bundleUploadPart': ({ uploadId, offset, data, name, size }) => ({ received: uploads.append(uploadId, offset, data, size, name) }),
    'plugins.bundlePreview': ({ uploadId }) => asFile(uploads.peek(uploadId), (file) => host.plugins.previewBundle(file)),
    'plugins.installBundle': async ({ uploadId, config, update, keepSecrets }) => {
      const outcome = await asFile(uploads.peek(uploadId), (file) => host.plugins.installBundle(file, config, () => update, { keepSecrets }));
      if (outcome.kind === 'declined') throw new ApiFailure('INVALID', `${outcome.update.pluginId} is already installed`, 'install it again as an update');
      uploads.take(uploadId);
      await host.plugins.rescanAndReload();
      emit({ type: 'plugins.changed', reread: [], removed: [], problems: host.plugins.catalog.problems.length });
      return { pluginId: outcome.installed.pluginId, dir: outcome.installed.dir, updated: outcome.kind === 'updated' };
    },
  };
}
