import type { ModelEntry, ProviderFailure } from '../shared/models.js';

/**
 * A failed model request in words for the terminal: what failed (DNS, TLS,
 * a refused connection, a bad key, an unknown model…), the provider's own
 * text, and what to do about it. The Models page words the same codes in
 * its own language (renderer i18n `models.failure.*`).
 */
export function describeProviderFailure(failure: ProviderFailure, entry: ModelEntry): { message: string; hint: string } {
  const where = hostOf(entry.baseUrl);
  const said = failure.message ? `: ${failure.message}` : '';
  switch (failure.kind) {
    case 'network':
      switch (failure.network) {
        case 'dns':
          return { message: `DNS: the host name ${where} could not be resolved${said}`, hint: 'check the host in --base-url, and that this machine is online' };
        case 'tls':
          return {
            message: `TLS: the secure connection to ${where} failed${said}`,
            hint: "check http:// versus https:// in the base URL (local servers usually speak plain http), and the server's certificate",
          };
        case 'refused':
          return { message: `connection refused by ${where}${said}`, hint: 'is the server running and listening there? (Ollama: ollama serve; LM Studio: start its local server)' };
        case 'reset':
          return { message: `the connection to ${where} was closed before the answer was complete${said}`, hint: "try again; if it keeps happening, check proxies and the server's logs" };
        case 'timeout':
          return { message: `timeout: ${where} did not answer in time${said}`, hint: 'check the base URL and your network; a slow local model may need --timeout SECONDS' };
        case 'incomplete':
          return { message: `the answer from ${where} stopped before the model finished${said}`, hint: 'try again; check that the server speaks the API you chose (--api)' };
        default:
          return { message: `the request to ${where} failed${said}`, hint: 'check the base URL and your network' };
      }
    case 'auth':
      return failure.status === 403
        ? { message: `HTTP 403: the key may not use this model or endpoint${said}`, hint: "check the key's permissions with the provider" }
        : { message: `HTTP ${failure.status ?? 401}: the provider refused the key (missing, wrong or expired)${said}`, hint: keyHint(entry) };
    case 'not-found':
      return {
        message: `HTTP 404: unknown model "${entry.model}" or wrong base URL${said}`,
        hint: `check the model name and the base URL (OpenAI-compatible servers usually end in /v1); the provider lists its models at ${entry.baseUrl.replace(/\/$/, '')}/models`,
      };
    case 'rate-limited':
      return {
        message: `HTTP 429: rate limited${failure.retryAfterMs !== undefined ? ` (retry after ${Math.ceil(failure.retryAfterMs / 1000)} s)` : ''}${said}`,
        hint: "wait and try again, or check your plan's limits and balance",
      };
    case 'server':
      return { message: `HTTP ${failure.status ?? '5xx'}: the provider failed${said}`, hint: "a problem on the provider's side; try again later" };
    case 'rejected':
      return {
        message: `HTTP ${failure.status ?? 400}: the provider rejected the request${said}`,
        hint: 'check the model name and parameters (--temperature, --max-tokens; a reasoning model needs --reasoning) for this provider',
      };
    case 'quota':
      return { message: `billing: the account has no credit left or its quota is used up${said}`, hint: "add credit or raise the limit in the provider's billing settings; waiting does not help" };
    case 'context-too-long':
      return { message: `the request is longer than the model's context window${said}`, hint: 'summarize or shorten the conversation, or use a model with a larger context window' };
    case 'content-filter':
      return { message: `the provider's content filter refused the request${said}`, hint: 'rephrase it, or use another model' };
    case 'aborted':
      return { message: 'the request was stopped', hint: 'run it again' };
    case 'too-long':
      return { message: `the answer from ${where} was too long${said}`, hint: 'ask for a shorter answer, or raise the limit (chatos chat --max-answer-chars N)' };
  }
}

function keyHint(entry: ModelEntry): string {
  switch (entry.key.kind) {
    case 'env':
      return `check the key in $${entry.key.name}`;
    case 'stored':
      return `store the right key: chatos models remove ${entry.id}, then add it again with --api-key-stdin (or edit it on the Models page)`;
    case 'none':
      return `this entry sends no key; add it again with --api-key-env VAR or --api-key-stdin`;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
