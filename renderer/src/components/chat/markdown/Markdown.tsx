import { createContext, isValidElement, memo, useContext, useEffect, useState, type ComponentProps, type ReactElement, type ReactNode } from 'react';
import ReactMarkdown, { type Components, type ExtraProps } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CopyButton } from './CopyButton';
import { highlight, highlightedBefore } from './highlight';
import { IdleQueue } from './idleQueue';
import { LruCache } from './lruCache';
import { splitMarkdownBlocks } from './markdownBlocks';
import './markdown.css';

/** False inside the block an answer is still writing: its code is highlighted once the block is complete, not at every piece. */
const HighlightNow = createContext(true);

/** A fenced code block: the language, a copy button, and the code highlighted once its grammar loaded (plain until then). */
function CodeBlock({ code, language }: { code: string; language: string }) {
  const now = useContext(HighlightNow);
  // Highlighted before (a message scrolled out of a long conversation and back): shown at once, never plain first.
  const [html, setHtml] = useState<string | undefined>(() => (now ? highlightedBefore(code, language) : undefined));
  useEffect(() => {
    if (!now) return setHtml(undefined);
    const known = highlightedBefore(code, language);
    if (known !== undefined) return setHtml(known);
    let current = true;
    highlight(code, language).then(
      (value) => current && setHtml(value),
      () => undefined, // a grammar that fails to load leaves the code plain
    );
    return () => {
      current = false;
    };
  }, [code, language, now]);
  return (
    <div className="md-code" data-testid="md-code" data-language={language || undefined}>
      <div className="md-code-bar">
        <span className="md-code-lang">{language}</span>
        <CopyButton text={code} testId="md-code-copy" />
      </div>
      {/* highlight.js escapes the code it returns; anything else is rendered as text. */}
      {html !== undefined ? (
        <pre className="hljs" data-highlighted="true">
          <code dangerouslySetInnerHTML={{ __html: html }} />
        </pre>
      ) : (
        <pre className="hljs">
          <code>{code}</code>
        </pre>
      )}
    </div>
  );
}

type CodeProps = ComponentProps<'code'> & ExtraProps;

/** The code and language of a fenced block, from react-markdown's props for a `code` element; undefined for inline code. */
function fencedCode({ className, children, node }: CodeProps): { code: string; language: string } | undefined {
  const fenced = node?.position ? node.position.start.line !== node.position.end.line || /language-/.test(className ?? '') : false;
  if (!fenced) return undefined;
  return { code: String(children ?? '').replace(/\n$/, ''), language: /language-([^\s]+)/.exec(className ?? '')?.[1] ?? '' };
}

const COMPONENTS: Components = {
  // Fenced blocks come as <pre><code class="language-x">; the block itself renders the <pre>.
  pre: ({ children }) => <>{children}</>,
  code(props) {
    const fenced = fencedCode(props);
    if (!fenced) return <code className="md-inline-code">{props.children}</code>;
    return <CodeBlock code={fenced.code} language={fenced.language} />;
  },
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  ),
  // A model's answer never loads remote content into the window: an image is a link to it.
  img: ({ src, alt }) => (
    <a href={typeof src === 'string' ? src : undefined} target="_blank" rel="noreferrer noopener">
      {alt || (typeof src === 'string' ? src : '')}
    </a>
  ),
  table: ({ children }) => (
    <div className="md-table-wrap">
      <table>{children}</table>
    </div>
  ),
};

const REMARK_PLUGINS: ComponentProps<typeof ReactMarkdown>['remarkPlugins'] = [remarkGfm];

/**
 * A block longer than this is shown as plain text: parsing one huge
 * paragraph as Markdown takes seconds, and again at every update while it
 * streams (a model's answer may be a megabyte without a blank line).
 */
const PLAIN_BLOCK_CHARS = 20_000;
/** A plain block's text in pieces of this size, each kept while unchanged: a streaming block renders its last piece again, not all of it. */
const PLAIN_PIECE_CHARS = 8_192;

const PlainPiece = memo(function PlainPiece({ text }: { text: string }): ReactNode {
  return text;
});

/** Pieces of `text`, never cut between the halves of a surrogate pair. */
function piecesOf(text: string): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length;) {
    let end = Math.min(text.length, start + PLAIN_PIECE_CHARS);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

function PlainBlock({ text }: { text: string }): ReactNode {
  return (
    <p className="md-plain" data-testid="md-plain-block">
      {piecesOf(text).map((piece, i) => (
        <PlainPiece key={i} text={piece} />
      ))}
    </p>
  );
}

/**
 * Blocks as rendered, by their text: a long conversation's virtual list
 * mounts a message again each time it scrolls back into view, and parsing
 * its Markdown again each time would cost a frame. A React element is a
 * plain description, so one element serves every mount. Bounded by the
 * characters it holds.
 */
const rendered = new LruCache<string, ReactElement>(1_000_000, (_element, text) => text.length);

// The function, not the component: its element tree is what is kept (react-markdown's Markdown uses no hooks).
const parseBlock = (text: string): ReactElement => ReactMarkdown({ children: text, remarkPlugins: REMARK_PLUGINS, components: COMPONENTS });

/** A complete block's elements: kept from before, or parsed now and kept. */
function completeBlock(text: string): ReactElement {
  let element = rendered.get(text);
  if (!element) rendered.set(text, (element = parseBlock(text)));
  return element;
}

/** One top-level block, parsed again only when its own text changes; a complete block is parsed once per page. */
const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }): ReactNode {
  // The block an answer is still writing changes at every piece: only finished ones are kept.
  return useContext(HighlightNow) ? completeBlock(text) : (rendered.get(text) ?? parseBlock(text));
});

/** The fenced code blocks among a block's elements (as the `code` component will render them). */
function codeBlocksIn(node: ReactNode, found: { code: string; language: string }[] = []): { code: string; language: string }[] {
  if (Array.isArray(node)) for (const child of node) codeBlocksIn(child as ReactNode, found);
  else if (isValidElement<{ children?: ReactNode }>(node)) {
    const fenced = node.type === COMPONENTS.code ? fencedCode(node.props as CodeProps) : undefined;
    if (fenced) found.push(fenced);
    else codeBlocksIn(node.props.children, found);
  }
  return found;
}

/**
 * Messages not shown yet (a window of older ones, loaded as the user
 * scrolls up) parsed and their code highlighted while the page is idle,
 * so each mounts from the caches when it scrolls into view instead of
 * parsing in the frame that shows it.
 */
const preparing = new IdleQueue<string>((block) => {
  for (const { code, language } of codeBlocksIn(completeBlock(block))) {
    if (highlightedBefore(code, language) === undefined) highlight(code, language).catch(() => undefined);
  }
});

/**
 * Prepares messages about to be shown (see `preparing`), in their order,
 * after those asked for before (nearer to the view). Block by block: one
 * answer can be long enough to take a frame on a busy machine.
 */
export function prepareMarkdown(texts: readonly string[]): void {
  preparing.add(texts.flatMap((text) => splitMarkdownBlocks(text).filter((block) => block.length <= PLAIN_BLOCK_CHARS)));
}

/**
 * A message in GitHub-flavoured Markdown (tables, task lists, strikethrough,
 * autolinks). No raw HTML is rendered and link urls are sanitized
 * (react-markdown's defaults): the text comes from a model. Rendered block
 * by block (markdownBlocks.ts), so a streaming answer re-parses only the
 * block being written; a very long block is shown as plain text.
 */
function MarkdownView({ text, streaming = false }: { text: string; streaming?: boolean }): ReactNode {
  const blocks = splitMarkdownBlocks(text);
  return (
    <div className="md-body">
      {blocks.map((block, i) => (
        <HighlightNow.Provider key={i} value={!streaming || i < blocks.length - 1}>
          {block.length > PLAIN_BLOCK_CHARS ? <PlainBlock text={block} /> : <MarkdownBlock text={block} />}
        </HighlightNow.Provider>
      ))}
    </div>
  );
}

export default memo(MarkdownView);
