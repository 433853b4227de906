import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { failureDetailKey, failureWords } from '../../renderer/src/components/models/failureWords.js';
import { formFieldOfModelPath, saveParams, EMPTY_DRAFT } from '../../renderer/src/components/models/modelDraft.js';
import { NetworkFailureSchema, ProviderErrorKindSchema } from '../../src/shared/models.js';
import { repoRoot } from '../helpers/tempDir.js';

type Resources = { default: Record<'zh' | 'en', Record<string, string>> };
// The texts the first screen loads, and the ones that come with their pages (the Models page's among them).
const resourceDirs = ['resources', 'lazy'].map((dir) => path.join(repoRoot, 'renderer', 'src', 'i18n', dir));

describe('the Models page texts', () => {
  it('every resource file has the same keys in zh and en', async () => {
    for (const [dir, name] of resourceDirs.flatMap((dir) => fs.readdirSync(dir).map((name) => [dir, name] as const))) {
      const { default: texts } = (await import(path.join(dir, name))) as Resources;
      expect(Object.keys(texts.zh).sort(), name).toEqual(Object.keys(texts.en).sort());
    }
  });

  it('words every failure kind and network failure in both languages', async () => {
    const { default: texts } = (await import(path.join(resourceDirs[1]!, 'models.ts'))) as Resources;
    const entry = { baseUrl: 'http://127.0.0.1:1/v1', model: 'm' };
    const failures = [
      ...ProviderErrorKindSchema.options.filter((kind) => kind !== 'network').map((kind) => ({ kind, message: '' })),
      ...NetworkFailureSchema.options.map((network) => ({ kind: 'network' as const, network, message: '' })),
      { kind: 'auth' as const, status: 403, message: '' },
      { kind: 'rate-limited' as const, retryAfterMs: 1500, message: '' },
    ];
    for (const failure of failures) {
      const { key } = failureWords(failure, entry);
      expect(Object.hasOwn(texts.zh, key), key).toBe(true);
      expect(Object.hasOwn(texts.en, key), key).toBe(true);
    }
    expect(failureWords({ kind: 'rate-limited', retryAfterMs: 1500, message: '' }, entry).values.seconds).toBe(2);
  });

  it("calls a failure's text what the provider said only where the provider answered", () => {
    const answered = ProviderErrorKindSchema.options.filter((kind) => failureDetailKey({ kind }) === 'models.test.providerSaid');
    expect(answered.sort()).toEqual(['auth', 'content-filter', 'context-too-long', 'not-found', 'quota', 'rate-limited', 'rejected', 'server']);
    // The host's own limit, not the provider's words.
    expect(failureDetailKey({ kind: 'too-long' })).toBe('models.test.details');
    expect(failureDetailKey({ kind: 'network' })).toBe('models.test.details');
    expect(failureDetailKey({ kind: 'aborted' })).toBe('models.test.details');
  });
});

describe("the model editor's draft", () => {
  it('sends a typed key only for a stored key, and empty numbers not at all', () => {
    const draft = { ...EMPTY_DRAFT, name: ' N ', baseUrl: 'http://x/v1', model: 'm', temperature: null, maxTokens: 5, keyKind: 'stored' as const, apiKey: ' sk-1 ' };
    expect(saveParams(draft, true)).toEqual({
      model: { name: 'N', api: 'openai', baseUrl: 'http://x/v1', model: 'm', vision: false, kind: 'chat', maxTokens: 5, key: { kind: 'stored' } },
      apiKey: 'sk-1',
    });
    expect(saveParams({ ...draft, keyKind: 'env', keyEnv: 'K' }, false)).toEqual({ model: expect.objectContaining({ key: { kind: 'env', name: 'K' } }) });
    expect(saveParams({ ...draft, apiKey: '' }, false)).not.toHaveProperty('apiKey');
  });

  it('sends the capabilities: reasoning with its effort, no tools, and an effort only for a reasoning model', () => {
    const draft = { ...EMPTY_DRAFT, name: 'R', baseUrl: 'http://x/v1', model: 'r1' };
    expect(saveParams({ ...draft, reasoning: true, reasoningEffort: 'high', tools: false }, true).model).toMatchObject({ kind: 'chat', reasoning: true, reasoningEffort: 'high', tools: false });
    const plain = saveParams({ ...draft, reasoningEffort: 'high' }, true).model;
    expect(plain).not.toHaveProperty('reasoningEffort');
    expect(plain).not.toHaveProperty('reasoning');
    expect(plain).not.toHaveProperty('tools');
    expect(saveParams({ ...draft, kind: 'embedding' }, true).model.kind).toBe('embedding');
  });

  it('puts a host error next to its field', () => {
    expect(formFieldOfModelPath('key.name')).toBe('keyEnv');
    expect(formFieldOfModelPath('baseUrl')).toBe('baseUrl');
    expect(formFieldOfModelPath('prices.output')).toBe('priceOutput');
    expect(formFieldOfModelPath('constructor')).toBeUndefined();
  });
});
