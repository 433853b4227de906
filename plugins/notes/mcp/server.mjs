#!/usr/bin/env node
// The Notes app's MCP server (stdio). Notes live in <workdir>/notes.json,
// where workdir is what ChatOS injects in _meta (the app's data folder).
// Built with the v2 server package and served by serveStdio, so it speaks
// both protocol eras: 2026-07-28 statelessly (server/discover) and 2025 over
// initialize, whichever the client opens with. stdout is the protocol
// channel: log to stderr only.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { solidPng } from './pngSwatch.mjs';

/** The request's `_meta` (where ChatOS puts the workdir): on the handler's context in the v2 server package. */
function workdirOf(ctx) {
  const meta = ctx?.mcpReq?._meta ?? {};
  const dir = meta.workdir ?? meta.chatos?.uiApp?.dataDir;
  if (typeof dir !== 'string' || dir === '') throw new Error('no workdir in _meta: run this server from ChatOS');
  return dir;
}

async function load(dir) {
  try {
    return JSON.parse(await fs.readFile(path.join(dir, 'notes.json'), 'utf8'));
  } catch (error) {
    if (error.code === 'ENOENT') return [];
    throw error;
  }
}

async function save(dir, notes) {
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, 'notes.json');
  await fs.writeFile(`${file}.tmp`, JSON.stringify(notes, null, 2));
  await fs.rename(`${file}.tmp`, file);
}

/**
 * One change of a folder's notes at a time: ChatOS runs one instance of this
 * server for every conversation (it keeps nothing of a conversation between
 * calls), so two calls may read and write notes.json at once.
 */
const queues = new Map();
function serialized(dir, change) {
  const previous = queues.get(dir) ?? Promise.resolve();
  const next = previous.then(change, change);
  const settled = next.catch(() => {});
  queues.set(dir, settled);
  void settled.then(() => queues.get(dir) === settled && queues.delete(dir));
  return next;
}

const text = (value) => ({ content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) }] });

/** One server per connection (serveStdio makes it once the opening message says the era); the notes themselves are shared. */
function makeServer() {
  const server = new McpServer({ name: 'chatos.notes.notes', version: '0.1.0' });
  server.registerTool('add_note', { description: 'Create a note.', inputSchema: { title: z.string().min(1), text: z.string() } }, async ({ title, text: body }, ctx) => {
    const dir = workdirOf(ctx);
    return serialized(dir, async () => {
      const notes = await load(dir);
      const note = { id: randomUUID().slice(0, 8), title, text: body, createdAt: new Date().toISOString() };
      notes.push(note);
      await save(dir, notes);
      return text(`added note ${note.id}`);
    });
  });

  server.registerTool(
    'list_notes',
    { description: 'List notes, optionally only those containing a keyword.', inputSchema: { keyword: z.string().optional() }, annotations: { readOnlyHint: true } },
    async ({ keyword }, ctx) => {
      const notes = await load(workdirOf(ctx));
      const found = keyword ? notes.filter((n) => `${n.title}\n${n.text}`.toLowerCase().includes(keyword.toLowerCase())) : notes;
      return { ...text(found), structuredContent: { notes: found } };
    },
  );

  server.registerTool('delete_note', { description: 'Delete a note by id.', inputSchema: { id: z.string() }, annotations: { destructiveHint: true } }, async ({ id }, ctx) => {
    const dir = workdirOf(ctx);
    return serialized(dir, async () => {
      const notes = await load(dir);
      const kept = notes.filter((n) => n.id !== id);
      if (kept.length === notes.length) return { ...text(`no note with id ${id}`), isError: true };
      await save(dir, kept);
      return text(`deleted note ${id}`);
    });
  });

  server.registerTool(
    'color_swatch',
    {
      description: 'Make a small PNG image of a colour given as #rrggbb.',
      inputSchema: { color: z.string().regex(/^#[0-9a-fA-F]{6}$/), size: z.number().int().min(1).max(256).default(32) },
      annotations: { readOnlyHint: true },
    },
    async ({ color, size }) => {
      const rgb = [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16));
      return {
        content: [
          { type: 'image', mimeType: 'image/png', data: solidPng(size, rgb).toString('base64') },
          { type: 'text', text: `${size}×${size} swatch of ${color}` },
        ],
      };
    },
  );
  return server;
}

serveStdio(makeServer);
