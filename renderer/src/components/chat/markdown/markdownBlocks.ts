/**
 * A message cut into its top-level Markdown blocks: a blank line outside a
 * fenced code block ends one. Each block is parsed and rendered on its own
 * and kept while its text is unchanged, so a streaming answer costs the
 * parse of its last (growing) block per update, not of the whole answer.
 * Blocks are independent only where Markdown allows it: a list whose items
 * are separated by blank lines becomes lists side by side (an ordered one
 * keeps its numbers), and a reference-style link defined in another block
 * stays text; neither changes what the answer says.
 */
export function splitMarkdownBlocks(text: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker) fence = marker;
    else if (fence !== undefined && marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
    if (fence === undefined && line.trim() === '' && current.length) {
      blocks.push(current.join('\n'));
      current = [];
      continue;
    }
    if (line.trim() !== '' || fence !== undefined || current.length) current.push(line);
  }
  if (current.length) blocks.push(current.join('\n'));
  return blocks;
}
