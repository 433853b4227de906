import { Readable } from 'node:stream';
import { streamRegularFile } from '../src/core/facades/userInput.js';
import { APP_CSP, ARTIFACT_CSP } from './appUrls.js';
import { resolveAppRequest, resolveArtifactRequest, resolveConversationArtifactRequest, type FileResolution } from './protocolFiles.js';

/**
 * The `chatos:` scheme's handler for `protocol.handle`: web-standard
 * Request in, Response out, so it runs (and is tested) under plain Node.
 * `chatos://app/…` is the built renderer, `chatos://artifacts/…` the
 * artifacts folder; any other host is not found.
 */
export interface AppProtocolOptions {
  /** The Vite build (dist/renderer). */
  rendererDir: string;
  /** `$CHATOS_HOME/chatos/artifacts`. */
  artifactsDir: string;
  /** `$CHATOS_HOME/chatos/conversations`: only each one's `artifacts/` folder is served. */
  conversationsDir?: string;
}

/** Headers every response carries: nothing is sniffed into another type, nothing is cached across versions. */
const COMMON_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' };

export function textResponse(status: number, message: string, csp: string): Response {
  return new Response(`${message}\n`, { status, headers: { ...COMMON_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Security-Policy': csp } });
}

/** Reads the resolved file into a response with its type and `csp`; HEAD gets the headers only. */
export async function fileResponse(resolution: FileResolution, method: string, csp: string, extraHeaders: Record<string, string> = {}): Promise<Response> {
  if (!resolution.ok) return textResponse(resolution.status, resolution.message, csp);
  // Opened again as a regular file, not a link: a FIFO or link swapped in since the check is refused, never waited on.
  const opened = streamRegularFile(resolution.file, { noFollow: true });
  if (!opened.ok) return textResponse(404, opened.message, csp);
  const headers = { ...COMMON_HEADERS, ...extraHeaders, 'Content-Type': resolution.contentType, 'Content-Length': String(opened.size), 'Content-Security-Policy': csp };
  if (!opened.stream || method === 'HEAD') {
    opened.stream?.destroy();
    return new Response(null, { status: 200, headers });
  }
  return new Response(Readable.toWeb(opened.stream) as ReadableStream<Uint8Array>, { status: 200, headers });
}

export function createAppProtocolHandler(options: AppProtocolOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return textResponse(405, `${request.method} is not served here; only GET and HEAD`, APP_CSP);
    const url = new URL(request.url);
    switch (url.host) {
      case 'app':
        return fileResponse(resolveAppRequest(options.rendererDir, url), request.method, APP_CSP);
      case 'artifacts':
        return fileResponse(resolveArtifactRequest(options.artifactsDir, url), request.method, ARTIFACT_CSP);
      case 'conversation-artifacts':
        if (!options.conversationsDir) return textResponse(404, `nothing is served at ${url.origin}`, APP_CSP);
        return fileResponse(resolveConversationArtifactRequest(options.conversationsDir, url), request.method, ARTIFACT_CSP);
      default:
        return textResponse(404, `nothing is served at ${url.origin}`, APP_CSP);
    }
  };
}
