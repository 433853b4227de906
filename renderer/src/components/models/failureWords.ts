import type { ProviderFailure } from '../../../../src/shared/models';

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The i18n key and values for a coded failure: what failed, in words (the CLI words the same codes). */
export function failureWords(failure: ProviderFailure, entry: { baseUrl: string; model: string }): { key: string; values: Record<string, string | number> } {
  const values = { host: hostOf(entry.baseUrl), model: entry.model, status: failure.status ?? '' };
  switch (failure.kind) {
    case 'network':
      return { key: `models.failure.network.${failure.network ?? 'other'}`, values };
    case 'auth':
      return { key: failure.status === 403 ? 'models.failure.forbidden' : 'models.failure.auth', values: { ...values, status: failure.status ?? 401 } };
    case 'rate-limited':
      return failure.retryAfterMs !== undefined
        ? { key: 'models.failure.rateLimitedWait', values: { ...values, seconds: Math.ceil(failure.retryAfterMs / 1000) } }
        : { key: 'models.failure.rate-limited', values };
    default:
      return { key: `models.failure.${failure.kind}`, values };
  }
}

/** How a failure's own text is introduced: only an HTTP reply is "what the provider said"; a network failure, an abort or the host's own answer limit is not its words. */
export function failureDetailKey(failure: Pick<ProviderFailure, 'kind'>): string {
  return failure.kind === 'network' || failure.kind === 'aborted' || failure.kind === 'too-long' ? 'models.test.details' : 'models.test.providerSaid';
}
