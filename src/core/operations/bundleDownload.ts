import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readBodyBytes } from '../net/boundedBody.js';
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
  const response = await fetchFollowing(parsed, options.allowHttp === true, fetchImpl);
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

/** The answer at `url`, its redirects followed by hand: each hop checked, none from https down to http. */
async function fetchFollowing(url: URL, allowHttp: boolean, fetchImpl: typeof fetch): Promise<Response> {
  let at = url;
  for (let hop = 0; ; hop++) {
    let response: Response;
    try {
      response = await fetchImpl(at, { redirect: 'manual' });
    } catch (error) {
      throw new InstallError('SOURCE_MISSING', `${at.origin} could not be reached: ${(error as Error).message}`, 'check the address and the network');
    }
    const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
    if (location === null) return response;
    await response.body?.cancel();
    const next = URL.canParse(location, at.href) ? new URL(location, at) : undefined;
    if (!next || (next.protocol !== 'https:' && next.protocol !== 'http:')) throw new InstallError('SOURCE_MISSING', `${at.origin} redirected to an address that is not http(s)`, 'check the address');
    if (at.protocol === 'https:' && next.protocol === 'http:')
      throw new InstallError('DOWNLOAD_REFUSED', `${at.origin} redirected to ${next.origin} over plain http`, 'ask the publisher for an https:// address that stays on https');
    if (next.protocol === 'http:' && !allowHttp && !isLoopbackName(next.hostname))
      throw new InstallError(
        'DOWNLOAD_REFUSED',
        `${at.origin} redirected to ${next.origin}, plain http off this machine`,
        'use its https:// address (or pass --allow-http if you trust the network path)',
      );
    if (hop >= MAX_REDIRECTS) throw new InstallError('SOURCE_MISSING', `${url.origin} redirected more than ${MAX_REDIRECTS} times`, 'check the address');
    at = next;
  }
}
