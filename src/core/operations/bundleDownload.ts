import * as fs from 'node:fs';
import * as path from 'node:path';
import { readBodyBytes } from '../net/boundedBody.js';
import { InstallError } from '../plugins/installError.js';
import { MAX_ZIP_BYTES } from '../plugins/zipExtract.js';

/**
 * A bundle the user names by URL, fetched into `dir` and then installed like
 * a file: bounded as it streams (a server that never stops is cut off at the
 * bundle limit), and only http(s). Nothing of it is unpacked here.
 */
export async function downloadBundle(url: string, dir: string, fetchImpl: typeof fetch = fetch): Promise<string> {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:'))
    throw new InstallError('SOURCE_MISSING', `${url} is not an http(s) address`, 'pass a .mcpb file or its https:// address');
  let response: Response;
  try {
    response = await fetchImpl(parsed, { redirect: 'follow' });
  } catch (error) {
    throw new InstallError('SOURCE_MISSING', `${parsed.origin} could not be reached: ${(error as Error).message}`, 'check the address and the network');
  }
  if (!response.ok) throw new InstallError('SOURCE_MISSING', `${parsed.origin} answered ${response.status} for the bundle`, 'check the address');
  const bytes = await readBodyBytes(response, {
    maxBytes: MAX_ZIP_BYTES,
    tooLarge: () => new InstallError('ZIP_REFUSED', `the bundle at ${parsed.origin} is larger than ${MAX_ZIP_BYTES / 1024 / 1024} MiB`, 'a bundle is refused past that size'),
  });
  const file = path.join(dir, 'download.mcpb');
  fs.writeFileSync(file, bytes);
  return file;
}
