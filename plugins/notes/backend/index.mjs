// The Notes backend: runs in its own Node process, started by ChatOS on the
// page's first host.backend.invoke(). It reads the same file the Notes MCP
// server writes (<dataDir>/notes.json, the server's injected workdir) and
// never writes it: the server stays the one writer.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

async function readNotes(dataDir) {
  try {
    const notes = JSON.parse(await fs.readFile(path.join(dataDir, 'notes.json'), 'utf8'));
    return Array.isArray(notes) ? notes : [];
  } catch (error) {
    if (error.code === 'ENOENT') return [];
    throw error;
  }
}

export function createUiAppsBackend(ctx) {
  return {
    methods: {
      /** How many notes there are and how many characters their titles and texts hold together. */
      async stats() {
        const notes = await readNotes(ctx.dataDir);
        const characters = notes.reduce((sum, note) => sum + String(note.title ?? '').length + String(note.text ?? '').length, 0);
        return { count: notes.length, characters };
      },
      async ping() {
        return { pong: true, pluginId: ctx.pluginId, at: new Date().toISOString() };
      },
    },
  };
}
