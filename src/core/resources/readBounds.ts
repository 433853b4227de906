import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { ResourceContent, ResourceRead } from '../../shared/resources.js';
import { head, MAX_RESULT_IMAGES } from '../chat/resultCap.js';

/**
 * One read within the host's bounds (docs/using/resources.md#size): its text
 * within the server's `maxResultChars` (the tool-result cap), at most
 * MAX_RESULT_IMAGES blobs (as a result's images), each kept as base64 data
 * with its mimeType. A line over the transport's 4 MiB is refused before it
 * gets here. What was left out is said in `cut`. Pure.
 */
export function boundedRead(serverId: string, uri: string, result: ReadResourceResult, maxChars: number): ResourceRead {
  const contents: ResourceContent[] = [];
  let totalChars = 0;
  let keptChars = 0;
  let blobs = 0;
  let droppedBlobs = 0;
  for (const item of result.contents) {
    const mime = typeof item.mimeType === 'string' ? { mimeType: item.mimeType } : {};
    if ('text' in item && typeof item.text === 'string') {
      totalChars += item.text.length;
      const room = maxChars - keptChars;
      if (room <= 0) continue;
      const text = item.text.length <= room ? item.text : head(item.text, room);
      keptChars += text.length;
      contents.push({ uri: item.uri, ...mime, text });
    } else if ('blob' in item && typeof item.blob === 'string') {
      if (blobs >= MAX_RESULT_IMAGES) {
        droppedBlobs++;
        continue;
      }
      blobs++;
      contents.push({ uri: item.uri, ...mime, blob: item.blob });
    }
  }
  const read: ResourceRead = { serverId, uri, contents };
  if (totalChars > keptChars || droppedBlobs > 0) read.cut = { totalChars, keptChars, droppedBlobs };
  return read;
}
