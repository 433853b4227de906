import { describe, expect, it } from 'vitest';
import { splitMarkdownBlocks } from '../../renderer/src/components/chat/markdown/markdownBlocks.js';

describe('Markdown blocks of a streaming answer', () => {
  it('cuts at blank lines, never inside a fenced code block, and keeps a growing last block whole', () => {
    const text = '# Title\n\nA paragraph\nover two lines.\n\n```py\ndef f():\n\n    return 1\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n~~~\nstill open\n\nno end yet';
    expect(splitMarkdownBlocks(text)).toEqual(['# Title', 'A paragraph\nover two lines.', '```py\ndef f():\n\n    return 1\n```', '| a | b |\n|---|---|\n| 1 | 2 |', '~~~\nstill open\n\nno end yet']);
  });

  it('a fence closes only with its own kind of marker, at least as long', () => {
    expect(splitMarkdownBlocks('````md\n```\n\ninner\n```\n````\n\nafter')).toEqual(['````md\n```\n\ninner\n```\n````', 'after']);
    expect(splitMarkdownBlocks('```\n~~~\n\nx\n```\n\ny')).toEqual(['```\n~~~\n\nx\n```', 'y']);
  });

  it('gives the same blocks for each prefix of an answer, except the last one growing', () => {
    const text = 'one\n\ntwo words\n\n```js\nconst x = 1;\n```\n\nthree';
    for (let end = 1; end <= text.length; end++) {
      const blocks = splitMarkdownBlocks(text.slice(0, end));
      const whole = splitMarkdownBlocks(text);
      expect(blocks.slice(0, -1)).toEqual(whole.slice(0, blocks.length - 1));
    }
  });
});
