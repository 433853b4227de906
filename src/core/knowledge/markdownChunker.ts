/**
 * Splits a document's text into chunks for search (pure: no I/O). Markdown
 * aware: a chunk prefers to end before a heading, then at a blank line,
 * then at a line end, then after a sentence, then at a space, and never
 * inside a fenced code block while a better place exists. Each chunk
 * repeats the last `overlap` characters of the one before it, except after
 * a heading break, where the new section starts clean.
 */

export interface ChunkOptions {
  size: number;
  overlap: number;
}

export interface TextChunk {
  /** The chunk's text, trimmed. */
  text: string;
  /** Offsets of the untrimmed range in the source. */
  start: number;
  end: number;
  /** The nearest Markdown heading at or before the chunk's start (its text, without the #s). */
  heading: string;
}

/** Break strengths, strongest first. */
const HEADING = 5;
const BLANK_LINE = 4;
const LINE_END = 3;
const SENTENCE_END = 2;
const SPACE = 1;

interface Layout {
  /** For each position: how good a break right before it is (0: none). */
  strength: Uint8Array;
  /** Headings by their start offset, in order. */
  headings: { at: number; text: string }[];
}

const HEADING_LINE = /^ {0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$/;
const FENCE_LINE = /^ {0,3}(```|~~~)/;

function layoutOf(text: string): Layout {
  const strength = new Uint8Array(text.length + 1);
  const headings: Layout['headings'] = [];
  let inFence = false;
  let lineStart = 0;
  let previousBlank = false;
  while (lineStart <= text.length) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd);
    const fence = FENCE_LINE.test(line);
    const blank = line.trim() === '';
    if (!inFence) {
      const heading = HEADING_LINE.exec(line);
      if (heading) {
        headings.push({ at: lineStart, text: heading[2]! });
        strength[lineStart] = HEADING;
      } else if (previousBlank && !blank) {
        strength[lineStart] = Math.max(strength[lineStart]!, BLANK_LINE);
      } else if (fence && lineStart > 0) {
        strength[lineStart] = Math.max(strength[lineStart]!, BLANK_LINE);
      }
    }
    if (fence) inFence = !inFence;
    if (newline === -1) break;
    // After a line end: weaker inside a fence, where lines belong together.
    const next = newline + 1;
    if (strength[next] === 0) strength[next] = inFence ? SPACE : LINE_END;
    previousBlank = blank;
    lineStart = next;
  }
  for (let i = 1; i < text.length; i++) {
    if (strength[i] !== 0) continue;
    const before = text[i - 1]!;
    if (before === ' ' || before === '\t') {
      const end = text[i - 2];
      strength[i] = end === '.' || end === '!' || end === '?' || end === '。' ? SENTENCE_END : SPACE;
    } else if (before === '。' || before === '！' || before === '？' || before === '；') {
      strength[i] = SENTENCE_END;
    }
  }
  return { strength, headings };
}

/** The best break in (from, to]: the strongest, and of those the latest. */
function bestBreak(strength: Uint8Array, from: number, to: number): number {
  let best = -1;
  let bestStrength = 0;
  for (let i = to; i > from; i--) {
    const s = strength[i]!;
    if (s > bestStrength) {
      best = i;
      bestStrength = s;
      if (s === HEADING) break;
    }
  }
  return best;
}

function latestOf(strength: Uint8Array, wanted: number, from: number, to: number): number {
  for (let i = to; i > from; i--) if (strength[i] === wanted) return i;
  return -1;
}

/** Where the next chunk starts: `overlap` characters back, moved forward to a word's start. */
function overlapStart(strength: Uint8Array, end: number, overlap: number, chunkStart: number): number {
  if (overlap === 0 || strength[end] === HEADING) return end;
  const from = Math.max(chunkStart + 1, end - overlap);
  for (let i = from; i < end; i++) if (strength[i]! > 0) return i;
  return end;
}

/**
 * The heading at or before each offset asked, for offsets asked in
 * increasing order: one walk over the headings for the whole text (a page
 * of many headings would otherwise cost chunks x headings).
 */
function headingCursor(headings: Layout['headings']): (offset: number) => string {
  let next = 0;
  let found = '';
  return (offset) => {
    while (next < headings.length && headings[next]!.at <= offset) found = headings[next++]!.text;
    return found;
  };
}

export function chunkText(text: string, options: ChunkOptions): TextChunk[] {
  const { size } = options;
  const overlap = Math.min(options.overlap, size - 1);
  const { strength, headings } = layoutOf(text);
  const headingAt = headingCursor(headings);
  const chunks: TextChunk[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.length;
    if (start + size < text.length) {
      // A section ends the chunk if it is not tiny; otherwise a break in the second half keeps chunks near their size.
      const heading = latestOf(strength, HEADING, start + Math.floor(size / 4), start + size);
      const found = heading > 0 ? heading : bestBreak(strength, start + Math.floor(size / 2), start + size);
      end = found > start ? found : start + size;
    }
    const raw = text.slice(start, end);
    const trimmed = raw.trim();
    if (trimmed) {
      const lead = raw.length - raw.trimStart().length;
      chunks.push({ text: trimmed, start, end, heading: headingAt(start + lead) });
    }
    if (end >= text.length) break;
    start = overlapStart(strength, end, overlap, start);
  }
  return chunks;
}
