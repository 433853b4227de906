import { lazy, Suspense } from 'react';

// react-markdown, remark-gfm and the highlighter load with the first message shown, not with the page.
const Markdown = lazy(() => import('./markdown/Markdown'));

/** A message in Markdown; until the renderer has loaded, the text as it is. `streaming`: the last block is still being written. */
export function LazyMarkdown({ text, streaming }: { text: string; streaming?: boolean }) {
  return (
    <Suspense fallback={<div className="md-body md-plain">{text}</div>}>
      <Markdown text={text} streaming={streaming} />
    </Suspense>
  );
}
