import { createContext, memo, useContext, useEffect, useState, type ComponentProps, type ReactElement, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CopyButton } from './CopyButton';
import { highlight, highlightedBefore } from './highlight';
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

const COMPONENTS: Components = {
  // Fenced blocks come as <pre><code class="language-x">; the block itself renders the <pre>.
  pre: ({ children }) => <>{children}</>,
  code({ className, children, node }) {
    const text = String(children ?? '');
    const fenced = node?.position ? node.position.start.line !== node.position.end.line || /language-/.test(className ?? '') : false;
    if (!fenced) return <code className="md-inline-code">{children}</code>;
    const language = /language-([^\s]+)/.exec(className ?? '')?.[1] ?? '';
    return <CodeBlock code={text.replace(/\n$/, '')} language={language} />;
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
 * Blocks as rendered, by their text: a long conversation's virtual list
 * mounts a message again each time it scrolls back into view, and parsing
 * its Markdown again each time would cost a frame. A React element is a
 * plain description, so one element serves every mount. Bounded by the
 * characters it holds.
 */
const rendered = new LruCache<string, ReactElement>(1_000_000, (_element, text) => text.length);

/** One top-level block, parsed again only when its own text changes; a complete block is parsed once per page. */
const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }): ReactNode {
  const complete = useContext(HighlightNow);
  const known = rendered.get(text);
  if (known) return known;
  // The function, not the component: its element tree is what is kept (react-markdown's Markdown uses no hooks).
  const element = ReactMarkdown({ children: text, remarkPlugins: REMARK_PLUGINS, components: COMPONENTS });
  // The block an answer is still writing changes at every piece: only finished ones are kept.
  if (complete) rendered.set(text, element);
  return element;
});

/**
 * A message in GitHub-flavoured Markdown (tables, task lists, strikethrough,
 * autolinks). No raw HTML is rendered and link urls are sanitized
 * (react-markdown's defaults): the text comes from a model. Rendered block
 * by block (markdownBlocks.ts), so a streaming answer re-parses only the
 * block being written.
 */
function MarkdownView({ text, streaming = false }: { text: string; streaming?: boolean }): ReactNode {
  const blocks = splitMarkdownBlocks(text);
  return (
    <div className="md-body">
      {blocks.map((block, i) => (
        <HighlightNow.Provider key={i} value={!streaming || i < blocks.length - 1}>
          <MarkdownBlock text={block} />
        </HighlightNow.Provider>
      ))}
    </div>
  );
}

export default memo(MarkdownView);
