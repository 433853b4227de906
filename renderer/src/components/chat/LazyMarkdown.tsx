import { Button } from 'antd';
import { lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import '../../i18n/load/chat';
import { PartSuspense } from '../../shell/lazyPart';

// react-markdown, remark-gfm and the highlighter load with the first message shown, not with the page.
const load = () => import('./markdown/Markdown');
const Markdown = lazy(load);

/**
 * A message longer than this shows its beginning and a "Show all": a page
 * lays out a few hundred thousand characters at once, megabytes (an answer
 * up to chat.maxAnswerChars) only slowly.
 */
const SHOWN_CHARS = 100_000;

/** A message in Markdown; until the renderer has loaded, the text as it is. `streaming`: the last block is still being written. */
export function LazyMarkdown({ text, streaming }: { text: string; streaming?: boolean }) {
  const { t } = useTranslation();
  const [all, setAll] = useState(false);
  const cut = !all && text.length > SHOWN_CHARS;
  const shown = cut ? text.slice(0, SHOWN_CHARS) : text;
  return (
    <>
      <PartSuspense fallback={<div className="md-body md-plain">{shown}</div>}>
        <Markdown text={shown} streaming={streaming && !cut} />
      </PartSuspense>
      {cut && (
        <Button size="small" type="link" className="md-show-all" onClick={() => setAll(true)} data-testid="message-show-all">
          {t('chat.message.showAll', { shown: SHOWN_CHARS.toLocaleString(), total: text.length.toLocaleString() })}
        </Button>
      )}
    </>
  );
}

/** Parses and highlights messages that are loaded but not shown yet, while the page is idle, in their order. */
export function prepareMarkdown(texts: readonly string[]): void {
  if (texts.length) void load().then((module) => module.prepareMarkdown(texts));
}
