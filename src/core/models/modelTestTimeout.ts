// A module of its own, with no imports: `chatos models test --help` names the default without loading the model clients.

/** How long a model test waits for the provider. */
export const MODEL_TEST_TIMEOUT_MS = 30_000;
