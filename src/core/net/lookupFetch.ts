import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * A fetch over node:http whose connections are made with `lookup` (see
 * checkedLookup): the platform's fetch takes no lookup, so a request that
 * must connect to the address that was checked is made here. It does what
 * the sign-in requests need and no more: any method, headers, a body of
 * text, form or bytes, an abort signal; redirects are never followed (the
 * caller sees the 3xx); the body is not decompressed (identity is asked for)
 * and streams, for the caller to bound.
 */

/** A Response with one of these statuses refuses a body. */
const NO_BODY = new Set([101, 204, 205, 304]);

function bodyBytes(body: RequestInit['body']): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof URLSearchParams) return Buffer.from(String(body));
  if (body instanceof ArrayBuffer) return Buffer.from(new Uint8Array(body));
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError('this fetch sends a body of text, a form or bytes only');
}

function headersOf(init: RequestInit | undefined, body: RequestInit['body']): Record<string, string> {
  const headers = new Headers(init?.headers);
  if (body instanceof URLSearchParams && !headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
  if (typeof body === 'string' && !headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
  headers.set('accept-encoding', 'identity');
  return Object.fromEntries(headers);
}

export function lookupFetch(lookup: LookupFunction): FetchLike {
  return (input, init) => {
    const url = new URL(String(input));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new TypeError(`a ${url.protocol} url is not fetched`));
    const body = bodyBytes(init?.body);
    return new Promise<Response>((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      const request = client.request(url, { method: init?.method ?? 'GET', headers: headersOf(init, init?.body), agent: false, lookup, ...(init?.signal ? { signal: init.signal } : {}) });
      request.on('error', reject);
      request.on('response', (response) => {
        const status = response.statusCode ?? 0;
        const headers = new Headers();
        for (let i = 0; i + 1 < response.rawHeaders.length; i += 2) headers.append(response.rawHeaders[i]!, response.rawHeaders[i + 1]!);
        const head = { status, statusText: response.statusMessage ?? '', headers };
        if (NO_BODY.has(status)) {
          response.destroy();
          return resolve(new Response(null, head));
        }
        // Cancelling the web stream (a reader at its limit) destroys the response, which closes the connection.
        resolve(new Response(Readable.toWeb(response) as ReadableStream<Uint8Array>, head));
      });
      request.end(body);
    });
  };
}
