import * as fs from 'node:fs';
import * as path from 'node:path';
import { readRegularFile } from '../../files/readRegularFile.js';

/** An artifact larger than this is not read back (images and attachments are kept well below it). */
const MAX_ARTIFACT_BYTES = 20 * 1024 * 1024;

/**
 * The bytes of a file in a conversation's folder, by its path there (a
 * tool's image, an attachment); undefined when it is missing, not a regular
 * file, too large, or not inside that folder once links are resolved.
 */
export function readConversationArtifact(folder: string, artifact: string): Buffer | undefined {
  try {
    const realFolder = fs.realpathSync(folder);
    const real = fs.realpathSync(path.resolve(folder, artifact));
    const relative = path.relative(realFolder, real);
    if (!relative || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
    const read = readRegularFile(real, { maxBytes: MAX_ARTIFACT_BYTES, noFollow: true });
    return read.ok ? read.bytes : undefined;
  } catch {
    return undefined;
  }
}
