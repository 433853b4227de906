/** Where keys are kept: a file only the user can read, or (the desktop app) one sealed with the system's keychain. */
export type { SecretStore } from '../secrets/secretStore.js';
export { FileSecretStore, type SecretCodec } from '../secrets/fileSecretStore.js';
export { SecretFile } from '../secrets/secretFile.js';
