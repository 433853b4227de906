import { describe, expect, it } from 'vitest';
import { ThinkTagSplitter } from '../../../../src/core/chat/providers/thinkTags.js';
import { ToolCallAssembler, type ToolCallPiece } from '../../../../src/core/chat/providers/toolCallAssembler.js';

/** Tool calls and <think> blocks put together from every piece shape providers stream (pure). */

function assemble(pieces: ToolCallPiece[]) {
  const assembler = new ToolCallAssembler();
  for (const piece of pieces) assembler.push(piece);
  return assembler.finish();
}
const calls = (events: ReturnType<typeof assemble>) => events.flatMap((e) => (e.type === 'tool-call' || e.type === 'tool-call-malformed' ? [[e.type, e.name, e.argumentsText]] : []));
const ids = (events: ReturnType<typeof assemble>) => events.flatMap((e) => (e.type === 'tool-call' || e.type === 'tool-call-malformed' ? [e.id] : []));
const notices = (events: ReturnType<typeof assemble>) => events.flatMap((e) => (e.type === 'notice' ? [e.text] : []));

describe('tool-call assembly', () => {
  it('OpenAI: id and name once, arguments in pieces, calls apart by index, even interleaved', () => {
    const events = assemble([
      { index: 0, id: 'a', name: 'f', arguments: '' },
      { index: 1, id: 'b', name: 'g', arguments: '{"x"' },
      { index: 0, arguments: '{"y":' },
      { index: 1, arguments: ':1}' },
      { index: 0, arguments: '2}' },
    ]);
    expect(calls(events)).toEqual([
      ['tool-call', 'f', '{"y":2}'],
      ['tool-call', 'g', '{"x":1}'],
    ]);
  });

  it('a new id with a name at the same index is a new call (Ollama 0.20 repeats index 0)', () => {
    expect(
      calls(
        assemble([
          { index: 0, id: 'a', name: 'f', arguments: '{"n":1}' },
          { index: 0, id: 'b', name: 'f', arguments: '{"n":2}' },
        ]),
      ),
    ).toEqual([
      ['tool-call', 'f', '{"n":1}'],
      ['tool-call', 'f', '{"n":2}'],
    ]);
  });

  it('without any index or id, a name after complete arguments starts the next call', () => {
    expect(
      calls(
        assemble([
          { name: 'f', arguments: '{"n":1}' },
          { name: 'f', arguments: '{"n":2}' },
          { name: 'g', arguments: '{}' },
        ]),
      ),
    ).toEqual([
      ['tool-call', 'f', '{"n":1}'],
      ['tool-call', 'f', '{"n":2}'],
      ['tool-call', 'g', '{}'],
    ]);
  });

  it('a name split over pieces is joined, a name repeated whole is not doubled', () => {
    expect(
      calls(
        assemble([
          { index: 0, id: 'a', name: 'mcp_chat_' },
          { index: 0, name: 'echo' },
          { index: 0, arguments: '{}' },
        ]),
      ),
    ).toEqual([['tool-call', 'mcp_chat_echo', '{}']]);
    expect(
      calls(
        assemble([
          { index: 0, id: 'a', name: 'f' },
          { index: 0, id: 'a', name: 'f', arguments: '{"n"' },
          { index: 0, id: 'a', name: 'f', arguments: ':1}' },
        ]),
      ),
    ).toEqual([['tool-call', 'f', '{"n":1}']]);
  });

  it('arguments sent as an object are taken as its JSON', () => {
    expect(calls(assemble([{ id: 'a', name: 'f', arguments: { city: 'Oslo' } }]))).toEqual([['tool-call', 'f', '{"city":"Oslo"}']]);
  });

  it('empty, missing and repeated ids get ids of our own, unique in the answer', () => {
    const events = assemble([
      { index: 0, id: '', name: 'f', arguments: '{}' },
      { index: 1, name: 'g', arguments: '{}' },
      { index: 2, id: 'same', name: 'h', arguments: '{}' },
      { index: 3, id: 'same', name: 'h', arguments: '{}' },
    ]);
    const got = ids(events);
    expect(got[2]).toBe('same');
    expect(new Set(got).size).toBe(4);
    for (const id of [got[0], got[1], got[3]]) expect(id).toMatch(/^call_[A-Za-z0-9_-]{12}$/);
  });

  it('an id changed mid-arguments keeps the call whole under its first id, and says so', () => {
    const events = assemble([
      { index: 0, id: 'first', name: 'f', arguments: '{"a":' },
      { index: 0, id: 'second', arguments: '1}' },
    ]);
    expect(calls(events)).toEqual([['tool-call', 'f', '{"a":1}']]);
    expect(ids(events)).toEqual(['first']);
    expect(notices(events)).toEqual(['the provider changed the id of the call to f mid-stream (from "first" to "second"); the first id is kept']);
  });

  it('a call without a name, or with arguments that are not JSON, is malformed (told to the model), never dropped', () => {
    expect(calls(assemble([{ index: 0, id: 'a', arguments: '{}' }]))).toEqual([['tool-call-malformed', '', '{}']]);
    expect(calls(assemble([{ index: 0, id: 'a', name: 'f', arguments: '{"a":' }]))).toEqual([['tool-call-malformed', 'f', '{"a":']]);
  });
});

function split(pieces: string[]) {
  const splitter = new ThinkTagSplitter();
  const out = pieces.flatMap((p) => splitter.push(p));
  const end = splitter.end();
  out.push(...end.pieces);
  const join = (kind: 'text' | 'reasoning') =>
    out
      .filter((p) => p.kind === kind)
      .map((p) => p.text)
      .join('');
  return { text: join('text'), reasoning: join('reasoning'), unclosed: end.unclosed };
}

describe('<think> at the start of an answer', () => {
  it('is split out wherever the tags are cut, the answer starting after the white space that follows', () => {
    expect(split(['<th', 'ink>plan', ' it</th', 'ink>', '\n\nAnswer.'])).toEqual({ text: 'Answer.', reasoning: 'plan it', unclosed: false });
    expect(split(['  \n<think>', 'x', '</think>', 'y'])).toEqual({ text: 'y', reasoning: 'x', unclosed: false });
  });

  it('is left alone when the answer does not start with it', () => {
    expect(split(['Use <think> tags ', 'like </think> this'])).toEqual({ text: 'Use <think> tags like </think> this', reasoning: '', unclosed: false });
    expect(split(['<', 'b>bold</b>'])).toEqual({ text: '<b>bold</b>', reasoning: '', unclosed: false });
  });

  it('a block that never closes keeps all it said as reasoning, and says it never closed', () => {
    expect(split(['<think>still', ' thinking </thi'])).toEqual({ text: '', reasoning: 'still thinking </thi', unclosed: true });
  });
});
