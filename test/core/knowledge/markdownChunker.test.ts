import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkText } from '../../../src/core/knowledge/markdownChunker.js';
import { htmlToText } from '../../../src/core/knowledge/htmlText.js';

describe('chunkText', () => {
  it('ends a chunk before a heading, names the heading, and starts the new section without overlap', () => {
    const text = `# Intro\n\n${'Intro words go here. '.repeat(6)}\n\n## Second\n\n${'Second part words. '.repeat(6)}`;
    const chunks = chunkText(text, { size: 200, overlap: 40 });
    const second = chunks.find((c) => c.heading === 'Second')!;
    expect(second.text.startsWith('## Second')).toBe(true);
    expect(chunks[0]!.heading).toBe('Intro');
    expect(chunks[0]!.text).not.toContain('## Second');
  });

  it('repeats the end of a chunk at the start of the next inside a long paragraph', () => {
    const text = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const [first, second] = chunkText(text, { size: 120, overlap: 30 });
    expect(second!.start).toBeLessThan(first!.end);
    expect(first!.text.endsWith(text.slice(second!.start, first!.end).trim())).toBe(true);
  });

  it('keeps a fenced code block whole when it fits, even with blank lines in it', () => {
    const code = '```js\nconst a = 1;\n\nconst b = 2;\n```';
    const text = `${'Before the code. '.repeat(8)}\n\n${code}\n\n${'After the code. '.repeat(8)}`;
    const chunks = chunkText(text, { size: 160, overlap: 0 });
    expect(chunks.some((c) => c.text.includes(code))).toBe(true);
  });

  it('for any text: chunks stay within the size, in order, and together cover every non-blank character', () => {
    const words = fc.constantFrom('alpha', 'beta', '# Head', '\n', '\n\n', '```', 'gamma.', ' ', '机器学习。', 'x'.repeat(50));
    fc.assert(
      fc.property(
        fc.array(words, { maxLength: 200 }).map((parts) => parts.join(' ')),
        fc.integer({ min: 20, max: 300 }),
        fc.integer({ min: 0, max: 100 }),
        (text, size, overlap) => {
          const chunks = chunkText(text, { size, overlap: Math.min(overlap, size - 1) });
          const covered = new Uint8Array(text.length);
          let lastStart = -1;
          for (const chunk of chunks) {
            expect(chunk.end - chunk.start).toBeLessThanOrEqual(size);
            expect(chunk.start).toBeGreaterThan(lastStart);
            expect(text.slice(chunk.start, chunk.end).trim()).toBe(chunk.text);
            lastStart = chunk.start;
            covered.fill(1, chunk.start, chunk.end);
          }
          for (let i = 0; i < text.length; i++) if (text[i]!.trim()) expect(covered[i], `character ${i} of ${JSON.stringify(text)}`).toBe(1);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('htmlToText', () => {
  it('keeps the visible text and headings, drops scripts and styles, decodes entities', () => {
    const { text, flattened } = htmlToText(
      '<html><head><title>t</title><style>p{}</style></head><body><h2>Care &amp; feeding</h2><p>Feed the <b>cat</b> twice.</p><script>alert(1)</script><ul><li>one</li><li>two</li></ul></body></html>',
    );
    expect(text).toBe('## Care & feeding\n\nFeed the cat twice.\n\none\n\ntwo');
    expect(flattened).toBe(0);
  });

  it('reads pages as browsers do: unclosed items and paragraphs, a body after an unclosed head, self-closing tags in SVG, stray end tags', () => {
    const read = (html: string) => htmlToText(html).text;
    expect(read('<ul><li>one<li>two<li>three</ul><p>a<p>b')).toBe('one\n\ntwo\n\nthree\n\na\n\nb');
    expect(read('<html><head><meta charset=utf-8><body>shown')).toBe('shown');
    expect(read('<p>before<svg><path/><text>drawn</text></svg>after</p>')).toBe('beforeafter');
    expect(read('<div>a</span></b>b</div></p>c<br/>d</br>e')).toBe('ab\n\nc\n\nd\n\ne');
    expect(read('<p>x &lt;y&gt; &amp;&nbsp;z &#x1F600;</p><style>p{}</style><noscript>no</noscript>')).toBe('x <y> & z 😀');
  });
});
