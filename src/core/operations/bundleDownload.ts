import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readBodyBytes } from '../net/boundedBody.js';
import { fetchFollowing, RedirectError } from '../net/followRedirects.js';
import { isLoopbackName } from '../net/loopback.js';
import { InstallError } from '../plugins/installError.js';
import { MAX_ZIP_BYTES } from '../plugins/zipExtract.js';

/** Redirects followed before the download is given up. */
const MAX_REDIRECTS = 5;

/**
 * A bundle the user names by URL, fetched into `dir` and then installed like
 * a file: bounded as it streams (a server that never stops is cut off at the
 * bundle limit), and only over https unless `allowHttp` (the user's word:
 * anyone on the network path can swap a plain-http download) or the host is
 * this machine's loopback (no network path). Redirects are followed one by
 * one, so none leads from https to plain http, whatever `allowHttp` says, nor
 * from this machine to plain http elsewhere. Nothing of it is unpacked here.
 * With `sha256` (a catalog entry's fileSha256) the bytes must have that
 * digest, or nothing is written: a mirror or a changed release cannot put
 * another file in the place of the one the registry lists.
 */
export async function downloadBundle(url: string, dir: string, options: { allowHttp?: boolean; sha256?: string } = {}, fetchImpl: typeof fetch = fetch): Promise<string> {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:'))
    throw new InstallError('SOURCE_MISSING', `${url} is not an http(s) address`, 'pass a .mcpb file or its https:// address');
  if (parsed.protocol === 'http:' && !options.allowHttp && !isLoopbackName(parsed.hostname))
    throw new InstallError(
      'DOWNLOAD_REFUSED',
      `${parsed.origin} is plain http: anyone on the way could change the bundle`,
      'use its https:// address (or pass --allow-http if you trust the network path)',
    );
  const response = await fetchBundle(parsed, options.allowHttp === true, fetchImpl);
  if (!response.ok) throw new InstallError('SOURCE_MISSING', `${parsed.origin} answered ${response.status} for the bundle`, 'check the address');
  const bytes = await readBodyBytes(response, {
    maxBytes: MAX_ZIP_BYTES,
    tooLarge: () => new InstallError('ZIP_REFUSED', `the bundle at ${parsed.origin} is larger than ${MAX_ZIP_BYTES / 1024 / 1024} MiB`, 'a bundle is refused past that size'),
  });
  if (options.sha256 !== undefined) {
    const digest = createHash('sha256').update(bytes).digest('hex');
    if (digest !== options.sha256.toLowerCase())
      throw new InstallError(
        'DIGEST_MISMATCH',
        `the bundle at ${parsed.origin} has SHA-256 ${digest}, not the ${options.sha256.toLowerCase()} its catalog entry names: it is not the file the registry lists, and nothing was installed`,
        "tell the entry's publisher; install it only from an address you trust",
      );
  }
  const file = path.join(dir, 'download.mcpb');
  fs.writeFileSync(file, bytes);
  return file;
}

/** The answer at `url`, its redirects followed by hand (followRedirects.ts): none from https down to http, none to plain http elsewhere unless allowed. */
async function fetchBundle(url: URL, allowHttp: boolean, fetchImpl: typeof fetch): Promise<Response> {
  try {
    return await fetchFollowing(
      url,
      {},
      {
        maxRedirects: MAX_REDIRECTS,
        fetchImpl,
        checkHop: (from, to) => (to.protocol === 'http:' && !allowHttp && !isLoopbackName(to.hostname) ? `${from.origin} redirected to ${to.origin}, plain http off this machine` : undefined),
      },
    );
  } catch (error) {
    if (!(error instanceof RedirectError)) throw error;
    switch (error.code) {
      case 'downgrade':
        throw new InstallError('DOWNLOAD_REFUSED', error.message, 'ask the publisher for an https:// address that stays on https');
      case 'refused':
        throw new InstallError('DOWNLOAD_REFUSED', error.message, 'use its https:// address (or pass --allow-http if you trust the network path)');
      case 'unreachable':
        throw new InstallError('SOURCE_MISSING', error.message, 'check the address and the network');
      default:
        throw new InstallError('SOURCE_MISSING', error.message, 'check the address');
    }
  }
}
