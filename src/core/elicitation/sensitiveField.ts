/**
 * Whether a form field asks for something secret (docs/using/elicitation.md#what-is-refused):
 * the spec says a server MUST NOT ask for passwords, API keys, tokens or the
 * like through a form (it uses url mode, where the user types them on the
 * server's own page). A field is judged by its name and title word by word,
 * and by its description for the phrases that can mean nothing else: a
 * description that says "do not give us your PIN" is no request for one.
 */

/** Words that, as a word of a field's name or title, ask for a secret. */
const SECRET_WORDS: ReadonlySet<string> = new Set([
  'password',
  'passwords',
  'passwd',
  'pwd',
  'passphrase',
  'passcode',
  'secret',
  'secrets',
  'token',
  'tokens',
  'apikey',
  'pin',
  'otp',
  'totp',
  'cvv',
  'cvc',
  'ssn',
  'credential',
  'credentials',
  'privatekey',
]);

/** Two words that together ask for a secret (`api key`, `private key`, `card number`). */
const SECRET_PAIRS: ReadonlySet<string> = new Set(['api key', 'private key', 'secret key', 'access key', 'card number', 'security code', 'auth code', 'recovery code']);

/** Phrases of a description that ask for a secret, in English (lower case) and Chinese. */
const SECRET_PHRASES: readonly string[] = [
  'password',
  'passphrase',
  'passcode',
  'api key',
  'api_key',
  'apikey',
  'secret key',
  'private key',
  'access token',
  'auth token',
  'bearer token',
  'credit card number',
];

/** Chinese words for a secret, anywhere in a name, title or description: 密码 (password), 口令, 密钥/秘钥 (key), 私钥, 令牌 (token), 验证码 (code), 凭据/凭证 (credentials), 支付密码. */
const SECRET_HANZI: readonly string[] = ['密码', '口令', '密钥', '秘钥', '私钥', '令牌', '验证码', '凭据', '凭证'];

/** The words of a name or title: camelCase, snake_case, kebab-case and spaces split, lower case. */
function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function namesSecret(text: string): boolean {
  if (SECRET_HANZI.some((word) => text.includes(word))) return true;
  const words = wordsOf(text);
  return words.some((word, i) => SECRET_WORDS.has(word) || (i > 0 && SECRET_PAIRS.has(`${words[i - 1]} ${word}`)));
}

/** The word that makes this field look like it asks for a secret, for the refusal; undefined when none does. */
export function sensitiveFieldReason(name: string, title: string | undefined, description: string | undefined): string | undefined {
  if (namesSecret(name)) return `its name "${name}"`;
  if (title !== undefined && namesSecret(title)) return `its title "${title}"`;
  if (description !== undefined) {
    const lower = description.toLowerCase();
    const phrase = SECRET_PHRASES.find((p) => lower.includes(p)) ?? SECRET_HANZI.find((word) => description.includes(word));
    if (phrase) return `its description ("${phrase}")`;
  }
  return undefined;
}
