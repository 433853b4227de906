import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * A view's `ui/download-file` (docs/rules/mcp-apps.md#what-the-view-may-ask):
 * the files it offers are saved only after the user says yes, one question
 * at a time (asked again meanwhile, it is refused). An embedded resource is
 * saved as it came; a resource link is read from the view's own server
 * through the host (the caller's access, the audit) and saved; nothing is
 * fetched from the web and nothing is opened or rendered, only saved.
 */

/** Bytes of one request's files together: past it the request is refused before anything is asked. */
export const MAX_DOWNLOAD_BYTES = 32 * 1024 * 1024;
/** Files one request may save. */
const MAX_FILES = 10;

interface File {
  name: string;
  mimeType: string;
  data: { text: string } | { base64: string };
}

type Resource = { uri?: unknown; mimeType?: unknown; text?: unknown; blob?: unknown };

/** A name the browser may save under: the uri's last segment, with no path, control or reserved characters. */
function fileName(uri: string): string {
  const last = uri.split(/[/\\]/).filter(Boolean).pop() ?? '';
  const name = last.replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_').slice(0, 120);
  return name && name !== '.' && name !== '..' ? name : 'download';
}

function fileOf(resource: Resource): File | undefined {
  if (typeof resource.uri !== 'string') return undefined;
  const mimeType = typeof resource.mimeType === 'string' ? resource.mimeType.slice(0, 200) : 'application/octet-stream';
  if (typeof resource.text === 'string') return { name: fileName(resource.uri), mimeType, data: { text: resource.text } };
  if (typeof resource.blob === 'string') return { name: fileName(resource.uri), mimeType, data: { base64: resource.blob } };
  return undefined;
}

const sizeOf = (file: File) => ('text' in file.data ? new Blob([file.data.text]).size : Math.floor((file.data.base64.length * 3) / 4));

function save(file: File): void {
  const bytes = 'text' in file.data ? file.data.text : Uint8Array.from(atob(file.data.base64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: file.mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export interface DownloadDeps {
  /** Reads a resource of the view's own server, as the view's caller. */
  read(uri: string): Promise<ReadResourceResult>;
  /** Asks the user whether to save these files (their names and sizes). */
  confirm(files: { name: string; bytes: number }[]): Promise<boolean>;
}

/** The handler of one view's `ui/download-file`. */
export function downloadHandler(deps: DownloadDeps): (params: { contents: unknown[] }) => Promise<{ isError?: boolean }> {
  let asking = false;
  return async ({ contents }) => {
    if (asking || !Array.isArray(contents) || contents.length === 0 || contents.length > MAX_FILES) return { isError: true };
    asking = true;
    try {
      const files: File[] = [];
      for (const item of contents as { type?: unknown; resource?: Resource; uri?: unknown }[]) {
        if (item?.type === 'resource' && item.resource) {
          const file = fileOf(item.resource);
          if (!file) return { isError: true };
          files.push(file);
        } else if (item?.type === 'resource_link' && typeof item.uri === 'string') {
          const read = await deps.read(item.uri);
          for (const content of read.contents) {
            const file = fileOf(content);
            if (file) files.push(file);
          }
        } else return { isError: true };
      }
      const sized = files.map((file) => ({ name: file.name, bytes: sizeOf(file) }));
      if (files.length === 0 || sized.reduce((sum, file) => sum + file.bytes, 0) > MAX_DOWNLOAD_BYTES) return { isError: true };
      if (!(await deps.confirm(sized))) return { isError: true };
      for (const file of files) save(file);
      return {};
    } finally {
      asking = false;
    }
  };
}
