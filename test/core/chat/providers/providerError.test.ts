import { describe, expect, it } from 'vitest';
import { classifyProviderError, errorFromEvent, mask, retryAfterOf } from '../../../../src/core/chat/providers/providerError.js';
import { toolCallEvent } from '../../../../src/core/chat/providers/streamEvent.js';

/** What an SDK's APIError carries, built the way the SDKs build theirs. */
class TestApiError extends Error {
  constructor(
    readonly status: number | undefined,
    readonly error: unknown,
    readonly headers: Headers,
  ) {
    super('sdk message');
  }
}

const context = { toolNames: ['read_file', 'read_file_lines', 'write_file'], secret: 'sk-secret-abcdef' };

describe('ProviderError classification', () => {
  it('names the tool of a rejection from `param` (tools[i]) before the text', () => {
    const error = classifyProviderError(new TestApiError(400, { error: { message: 'Invalid schema', param: 'tools[2].function.parameters' } }, new Headers()), context);
    expect(error.toolName).toBe('write_file');
  });

  it('names the longest tool name that appears whole in the text, and none when none does', () => {
    expect(classifyProviderError(new TestApiError(400, { error: { message: "bad schema in 'read_file_lines'" } }, new Headers()), context).toolName).toBe('read_file_lines');
    expect(classifyProviderError(new TestApiError(400, { error: { message: 'bad schema in read_files' } }, new Headers()), context).toolName).toBeUndefined();
  });

  it('takes Retry-After as seconds or an HTTP date, and retry-after-ms first', () => {
    expect(retryAfterOf(new Headers({ 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterOf(new Headers({ 'retry-after': '3', 'retry-after-ms': '250' }))).toBe(250);
    const inTen = new Date(Date.now() + 10_000).toUTCString();
    expect(retryAfterOf(new Headers({ 'retry-after': inTen }))).toBeGreaterThan(8_000);
    expect(retryAfterOf(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
  });

  it('an error event in a stream is coded by its type (Anthropic overloaded, OpenAI invalid request)', () => {
    expect(errorFromEvent({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, context).toJSON()).toEqual({ kind: 'server', message: 'Overloaded' });
    expect(errorFromEvent({ code: 'invalid_request_error', message: 'no' }, context).kind).toBe('rejected');
    expect(errorFromEvent({ code: 'rate_limit_exceeded', message: 'slow down' }, context).kind).toBe('rate-limited');
  });

  it('other 4xx are rejected (the same request would fail again), 408 is a timeout', () => {
    expect(classifyProviderError(new TestApiError(409, { error: { message: 'conflict' } }, new Headers()), context).kind).toBe('rejected');
    expect(classifyProviderError(new TestApiError(408, {}, new Headers()), context).toJSON()).toMatchObject({ kind: 'network', network: 'timeout' });
  });

  it('masks the key wherever it appears, a short or empty key masks nothing', () => {
    expect(mask('a sk-secret-abcdef b sk-secret-abcdef', context)).toBe('a *** b ***');
    expect(mask('abc', { secret: '' })).toBe('abc');
  });
});

describe('toolCallEvent', () => {
  it('empty arguments are {}; an array, a string or broken JSON is malformed', () => {
    expect(toolCallEvent('1', 't', '')).toMatchObject({ type: 'tool-call', args: {} });
    expect(toolCallEvent('1', 't', '[1]')).toMatchObject({ type: 'tool-call-malformed', message: 'the arguments of t must be a JSON object' });
    expect(toolCallEvent('1', 't', '"x"')).toMatchObject({ type: 'tool-call-malformed' });
    expect(toolCallEvent('1', 't', '{')).toMatchObject({ type: 'tool-call-malformed', message: 'the arguments of t are not valid JSON' });
  });
});
