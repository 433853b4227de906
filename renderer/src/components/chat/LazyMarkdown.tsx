import { lazy, Suspense } from 'react';

// react-markdown, remark-gfm and the highlighter load with the first message shown, not with the page.
const load = () => import('./markdown/Markdown');
const Markdown = lazy(load);

/** A message in Markdown; until the renderer has loaded, the text as it is. `streaming`: the last block is still being written. */
export function LazyMarkdown({ text, streaming }: { text: string; streaming?: boolean }) {
  return (
    <Suspense fallback={<div className="md-body md-plain">{text}</div>}>
      <Markdown text={text} streaming={streaming} />
    </Suspense>
  );
}

/** Parses and highlights messages that are loaded but not shown yet, while the page is idle, in their order. */
export function prepareMarkdown(texts: readonly string[]): void {
  if (texts.length) void load().then((module) => module.prepareMarkdown(texts));
}
