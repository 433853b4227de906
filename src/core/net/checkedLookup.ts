import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';

/**
 * The `lookup` a connection is made with (node:http's option, handed to
 * net.connect): the host name is resolved once, the answer checked, and the
 * checked address is the one connected to. A check made with its own lookup
 * before the request would be worth nothing against a name that answers a
 * public address to the check and a private one to the connection (DNS
 * rebinding); here there is one answer (docs/rules/security.md#outgoing-requests).
 */

export const systemResolve = (hostname: string) =>
  new Promise<LookupAddress[]>((resolve, reject) => dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

export interface CheckedLookupOptions {
  /** How a host name resolves; default the system's. */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
  /** The refusal for an address not to connect to, or undefined to allow it. */
  refuse: (address: string) => Error | undefined;
  /** Told of the refusal, which net then wraps in its own error: the caller throws this one instead. */
  onRefused: (refusal: Error) => void;
}

export function checkedLookup(options: CheckedLookupOptions): LookupFunction {
  const resolve = options.resolve ?? systemResolve;
  return (hostname, lookupOptions, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const usable = addresses.filter((entry) => !lookupOptions.family || entry.family === lookupOptions.family);
        let refusal: Error | undefined;
        for (const entry of usable) if (!refusal) refusal = options.refuse(entry.address);
        if (refusal) options.onRefused(refusal);
        const chosen = usable[0];
        if (refusal || !chosen) {
          const error = refusal ?? Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
          callback(error as NodeJS.ErrnoException, '', 4);
          return;
        }
        if (lookupOptions.all) (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, [chosen]);
        else callback(null, chosen.address, chosen.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };
}
