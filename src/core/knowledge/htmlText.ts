import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

/**
 * How deep elements may nest. Deeper ones are flattened: their text is kept
 * as text of the element above them, their own structure is not followed
 * (Chromium's HTML parser does the same past 512).
 */
export const MAX_HTML_DEPTH = 512;

/** Elements whose content is not text a reader sees. */
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head']);
/** Elements that start a new block (a line break in the text). */
const BLOCKS = new Set(['p', 'div', 'br', 'li', 'ul', 'ol', 'tr', 'table', 'section', 'article', 'header', 'footer', 'blockquote', 'pre', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Elements that never have content (a close tag of theirs is ignored, but `</br>` is a line break, as in browsers). */
const VOID = new Set(['area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
/** Elements in which a self-closing tag (`<path/>`) closes itself; in HTML it does not. */
const FOREIGN = new Set(['svg', 'math']);

const P = new Set(['p']);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p']);
const FORM = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
/** What an opening tag closes when it is the innermost open element (htmlparser2's table): unclosed `<li>`, `<p>`, `<td>` do not nest. */
const CLOSES = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['a', new Set(['a'])],
  ['li', new Set(['li'])],
  ...[
    'p',
    'address',
    'article',
    'aside',
    'blockquote',
    'details',
    'div',
    'dl',
    'fieldset',
    'figcaption',
    'figure',
    'footer',
    'form',
    'header',
    'hr',
    'main',
    'nav',
    'ol',
    'pre',
    'section',
    'table',
    'ul',
  ].map((name): [string, ReadonlySet<string>] => [name, P]),
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((name): [string, ReadonlySet<string>] => [name, HEADINGS]),
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((name): [string, ReadonlySet<string>] => [name, FORM]),
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', new Set(['dd', 'dt'])],
  ['dt', new Set(['dd', 'dt'])],
  ['rt', new Set(['rt', 'rp'])],
  ['rp', new Set(['rt', 'rp'])],
  ['tbody', new Set(['thead', 'tbody'])],
  ['tfoot', new Set(['thead', 'tbody'])],
]);

/** The visible text, and how many elements nested past MAX_HTML_DEPTH were flattened. */
export interface HtmlText {
  text: string;
  flattened: number;
}

/**
 * Reads the tokens into text with its own stack of open elements, bounded
 * and kept with push/pop and a count per name: htmlparser2's Parser keeps
 * its stack with unshift and indexOf, so each tag of a deeply nested
 * document cost as much as the depth (1.6 MB of nested divs took tens of
 * seconds), on the host's main thread.
 */
class TextReader implements TokenizerCallbacks {
  readonly out: string[] = [];
  flattened = 0;
  /** Open elements, innermost last. */
  private readonly stack: string[] = [];
  /** How many elements of each name are open: a close tag of one that is not is ignored without a search. */
  private readonly openCount = new Map<string, number>();
  private hidden = 0;
  private foreign = 0;
  private tag = '';

  constructor(private readonly html: string) {}

  onopentagname(start: number, endIndex: number): void {
    this.tag = this.html.slice(start, endIndex).toLowerCase();
  }

  onopentagend(): void {
    this.open(this.tag);
  }

  onselfclosingtag(): void {
    const inForeign = this.foreign > 0 || FOREIGN.has(this.tag);
    const pushed = this.open(this.tag);
    if (inForeign && pushed) this.closeInnermost();
  }

  onclosetag(start: number, endIndex: number): void {
    const name = this.html.slice(start, endIndex).toLowerCase();
    if (VOID.has(name)) {
      if (name === 'br') this.out.push('\n\n');
    } else if (this.openCount.get(name)) {
      let closed: string;
      do closed = this.closeInnermost();
      while (closed !== name);
    } else if (name === 'p') {
      // A `</p>` without its `<p>` is an empty paragraph.
      this.out.push('\n\n');
    }
  }

  ontext(start: number, endIndex: number): void {
    if (this.hidden === 0) this.out.push(this.html.slice(start, endIndex).replace(/\s+/g, ' '));
  }

  ontextentity(codepoint: number): void {
    if (this.hidden === 0) this.out.push(String.fromCodePoint(codepoint).replace(/\s+/g, ' '));
  }

  /** Opens an element; false when it holds nothing (void) or was flattened. */
  private open(name: string): boolean {
    const closes = CLOSES.get(name);
    while (closes && this.stack.length && closes.has(this.stack.at(-1)!)) this.closeInnermost();
    if (/^h[1-6]$/.test(name)) this.out.push(`\n\n${'#'.repeat(Number(name[1]))} `);
    else if (BLOCKS.has(name)) this.out.push('\n\n');
    if (VOID.has(name)) return false;
    // Past the depth, only the first hidden element is still followed: what it holds must stay hidden.
    if (this.stack.length >= MAX_HTML_DEPTH && !(HIDDEN.has(name) && this.hidden === 0)) {
      this.flattened++;
      return false;
    }
    this.stack.push(name);
    this.openCount.set(name, (this.openCount.get(name) ?? 0) + 1);
    if (HIDDEN.has(name)) this.hidden++;
    if (FOREIGN.has(name)) this.foreign++;
    return true;
  }

  private closeInnermost(): string {
    const name = this.stack.pop()!;
    this.openCount.set(name, this.openCount.get(name)! - 1);
    if (HIDDEN.has(name)) this.hidden--;
    if (FOREIGN.has(name)) this.foreign--;
    if (BLOCKS.has(name)) this.out.push('\n\n');
    return name;
  }

  onattribdata(): void {}
  onattribentity(): void {}
  onattribend(): void {}
  onattribname(): void {}
  oncdata(): void {}
  oncomment(): void {}
  ondeclaration(): void {}
  onend(): void {}
  onprocessinginstruction(): void {}
}

/**
 * The visible text of an HTML page, with headings kept as Markdown headings
 * so the chunker splits at them too. htmlparser2's tokenizer decodes
 * entities and copes with broken markup, as browsers do. Linear in the
 * page's size, however deep its elements nest.
 */
export function htmlToText(html: string): HtmlText {
  const reader = new TextReader(html);
  const tokenizer = new Tokenizer({ decodeEntities: true }, reader);
  tokenizer.write(html);
  tokenizer.end();
  // Text runs hold no line ends and no whitespace but single spaces: trimming each line is dropping the spaces around its ends.
  const text = reader.out
    .join('')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { text, flattened: reader.flattened };
}
