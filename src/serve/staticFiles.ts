import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { conversationArtifactFile } from '../pageHost/conversationArtifacts.js';
import { contentTypeOf, fileInside, urlPathSegments } from '../pageHost/safePath.js';
import { sendFile, sendText } from './responses.js';

/**
 * The renderer's CSP. antd injects its styles at run time, hence
 * 'unsafe-inline' for styles only; scripts come from this origin alone, and
 * the only other connections allowed are the event socket's.
 */
export function rendererCsp(port: number, viewPort: number): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    // No ws://[::1]: CSP has no syntax for IPv6 literals (browsers drop it with a warning), and the server listens on 127.0.0.1 only.
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    // MCP App views run at sites of their own on the views' port (viewServer.ts).
    `frame-src 'self' http://*.localhost:${viewPort}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Artifacts are tool output (any MCP server's): an SVG opened on its own must not run script on this origin. */
const ARTIFACT_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox";

/** What a renderer request resolves to: a file to send, the html shell for a client route, or nothing. */
export type RendererTarget = { kind: 'file'; file: string; html: boolean; asset: boolean } | { kind: 'not-built' } | { kind: 'not-found' };

/**
 * A renderer file from the Vite build output. A path without an extension
 * that is not a file is a client route and gets index.html; a missing file
 * with an extension is a 404, so a wrong asset url fails loudly.
 */
export function resolveRendererFile(rendererDir: string, rawPath: string): RendererTarget {
  const index = path.join(rendererDir, 'index.html');
  if (!fs.existsSync(index)) return { kind: 'not-built' };
  const segments = urlPathSegments(rawPath);
  if (!segments) return { kind: 'not-found' };
  const file = segments.length ? fileInside(rendererDir, segments) : undefined;
  if (file) return { kind: 'file', file, html: file.endsWith('.html'), asset: segments[0] === 'assets' };
  const last = segments.at(-1) ?? '';
  return last.includes('.') ? { kind: 'not-found' } : { kind: 'file', file: index, html: true, asset: false };
}

export function sendRendererTarget(req: IncomingMessage, res: ServerResponse, target: RendererTarget, port: number, viewPort: number): void {
  switch (target.kind) {
    case 'not-built':
      return sendText(res, 503, 'The ChatOS UI is not built yet: run "npm run build" in the ChatOS folder, then reload this page.');
    case 'not-found':
      return sendText(res, 404, 'not found');
    case 'file': {
      const headers: Record<string, string> = {};
      if (target.html) headers['Content-Security-Policy'] = rendererCsp(port, viewPort);
      // Vite names assets by content hash: a changed file gets a new name.
      if (target.asset) headers['Cache-Control'] = 'private, max-age=31536000, immutable';
      return sendFile(req, res, target.file, contentTypeOf(target.file), headers);
    }
  }
}

/** `/artifacts/<path>`: a file the gateway saved under the artifacts folder, and nothing outside it. */
export function sendArtifact(req: IncomingMessage, res: ServerResponse, artifactsDir: string, rawPath: string): void {
  const segments = urlPathSegments(rawPath);
  sendArtifactFile(req, res, segments && fileInside(artifactsDir, segments));
}

/** `/conversation-artifacts/<id>/<path>`: an image a conversation's tool call returned, from its artifacts folder only. */
export function sendConversationArtifact(req: IncomingMessage, res: ServerResponse, conversationsDir: string, rawPath: string): void {
  const segments = urlPathSegments(rawPath);
  sendArtifactFile(req, res, segments && conversationArtifactFile(conversationsDir, segments));
}

function sendArtifactFile(req: IncomingMessage, res: ServerResponse, file: string | undefined): void {
  if (!file) return sendText(res, 404, 'no such artifact');
  sendFile(req, res, file, contentTypeOf(file), { 'Content-Security-Policy': ARTIFACT_CSP });
}
