/**
 * `<think>…</think>` at the start of an answer's text, as distilled
 * reasoning models served by Ollama, vLLM or LM Studio write it when no
 * reasoning parser splits it out: the thinking goes apart from the answer.
 * Streamed, so a tag may arrive split over pieces (`<thi` + `nk>`); only
 * text at the very start (after white space) opens a block, so an answer
 * that talks about `<think>` later is left alone.
 *
 * Some chat templates open the block themselves (Qwen3 Thinking-2507,
 * DeepSeek R1-0528: the prompt ends with `<think>\n`), so the stream holds
 * only the closing tag. Until a `</think>` comes, what streams is answer
 * text as far as anyone can tell; the first `</think>` (with no `<think>`
 * before it) says it was thinking: a `was-reasoning` piece says so, and the
 * rest of that piece is thinking up to the tag, answer after it.
 */

const OPEN = '<think>';
const CLOSE = '</think>';

export type SplitPiece = { kind: 'text' | 'reasoning'; text: string } | { kind: 'was-reasoning' };

/** The longest end of `text` that is the start of `tag` (a tag that may be completed by the next piece). */
function partialTagAtEnd(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) if (tag.startsWith(text.slice(-n))) return n;
  return 0;
}

export class ThinkTagSplitter {
  /** `open`: answer text with no tag yet, which a lone `</think>` would turn into thinking. */
  private state: 'start' | 'thinking' | 'open' | 'answer' = 'start';
  private pending = '';
  /** The answer after a closed block starts at its first non-space character. */
  private trimAnswer = false;

  push(piece: string): SplitPiece[] {
    const out: SplitPiece[] = [];
    let rest = piece;
    while (rest) {
      if (this.state === 'start') {
        this.pending += rest;
        rest = '';
        const lead = this.pending.trimStart();
        if (lead.length < OPEN.length && OPEN.startsWith(lead)) break;
        if (lead.startsWith(OPEN)) {
          this.state = 'thinking';
          rest = lead.slice(OPEN.length);
          this.pending = '';
        } else {
          this.state = 'open';
          rest = this.pending;
          this.pending = '';
        }
      } else if (this.state === 'thinking') {
        this.pending += rest;
        rest = '';
        const end = this.pending.indexOf(CLOSE);
        if (end !== -1) {
          if (end > 0) out.push({ kind: 'reasoning', text: this.pending.slice(0, end) });
          rest = this.pending.slice(end + CLOSE.length);
          this.pending = '';
          this.state = 'answer';
          this.trimAnswer = true;
        } else {
          const keep = partialTagAtEnd(this.pending, CLOSE);
          const ready = this.pending.slice(0, this.pending.length - keep);
          if (ready) out.push({ kind: 'reasoning', text: ready });
          this.pending = this.pending.slice(this.pending.length - keep);
        }
      } else if (this.state === 'open') {
        this.pending += rest;
        rest = '';
        const end = this.pending.indexOf(CLOSE);
        const opened = this.pending.indexOf(OPEN);
        if (end !== -1 && (opened === -1 || opened > end)) {
          out.push({ kind: 'was-reasoning' });
          if (end > 0) out.push({ kind: 'reasoning', text: this.pending.slice(0, end) });
          rest = this.pending.slice(end + CLOSE.length);
          this.pending = '';
          this.state = 'answer';
          this.trimAnswer = true;
        } else if (opened !== -1) {
          // A tag opened mid-answer: the answer talks about tags; it is left alone from here.
          this.state = 'answer';
          rest = this.pending;
          this.pending = '';
        } else {
          const keep = partialTagAtEnd(this.pending, CLOSE);
          const ready = this.pending.slice(0, this.pending.length - keep);
          if (ready) out.push({ kind: 'text', text: ready });
          this.pending = this.pending.slice(this.pending.length - keep);
        }
      } else {
        const text = this.trimAnswer ? rest.trimStart() : rest;
        if (text) {
          this.trimAnswer = false;
          out.push({ kind: 'text', text });
        }
        rest = '';
      }
    }
    return out;
  }

  /** What is still held at the end of the stream, and whether a block was opened and never closed. */
  end(): { pieces: SplitPiece[]; unclosed: boolean } {
    const held = this.pending;
    this.pending = '';
    if (this.state === 'thinking') return { pieces: held ? [{ kind: 'reasoning', text: held }] : [], unclosed: true };
    return { pieces: held ? [{ kind: 'text', text: held }] : [], unclosed: false };
  }
}
