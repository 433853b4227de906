import { describe, expect, it } from 'vitest';
import { megabytes, overlongIdOf, overlongIsCall } from '../../../src/core/process/overlongAnswer.js';

const ends = (line: string) => ({ head: Buffer.from(line.slice(0, 512)), tail: Buffer.from(line.slice(-512)) });
const body = 'x'.repeat(2_000);

describe('the id of a line too long to read, from its ends', () => {
  it('finds it first (Python SDK) or last (TypeScript SDK), as a number or a string', () => {
    expect(overlongIdOf(ends(`{"jsonrpc":"2.0","id":7,"result":{"text":"${body}"}}`))).toBe(7);
    expect(overlongIdOf(ends(`{"id":"req-1","jsonrpc":"2.0","result":{"text":"${body}"}}`))).toBe('req-1');
    expect(overlongIdOf(ends(`{"result":{"content":[{"type":"text","text":"${body}"}]},"jsonrpc":"2.0","id":12}\r`))).toBe(12);
  });

  it('never takes an id nested in the result for the outer one', () => {
    // The last key of an inner object: the line ends with two braces, not one.
    expect(overlongIdOf(ends(`{"jsonrpc":"2.0","result":{"text":"${body}","item":{"id":5}}}`))).toBeUndefined();
    // An inner id near the start, after the result began.
    expect(overlongIdOf(ends(`{"result":{"id":3,"text":"${body}"},"jsonrpc":"2.0"}`))).toBeUndefined();
  });

  it("knows the server's own request or notification by its start: it answers no call", () => {
    expect(overlongIsCall(ends(`{"method":"notifications/message","params":{"data":"${body}"},"jsonrpc":"2.0"}`))).toBe(true);
    expect(overlongIsCall(ends(`{"jsonrpc":"2.0","method":"sampling/createMessage","id":4,"params":{}}`))).toBe(true);
    expect(overlongIsCall(ends(`{"result":{"method":"x","text":"${body}"},"jsonrpc":"2.0","id":1}`))).toBe(false);
  });

  it('says sizes in megabytes', () => {
    expect(megabytes(6 * 1024 * 1024 + 40)).toBe('6 MB');
    expect(megabytes(4.25 * 1024 * 1024)).toBe('4.3 MB');
  });
});
