/**
 * The words a form field uses when it asks for a secret
 * (docs/using/elicitation.md#what-is-refused), in the languages servers
 * write: English, Chinese, German, French, Spanish, Portuguese, Italian,
 * Dutch, Russian, Japanese, Korean. Written as a reader spells them; the
 * matcher (sensitiveField.ts) normalises both sides the same way, so
 * `passWord`, `PASS_WORD`, `Mot-de-passe` and `contraseña` meet their entry.
 */

/**
 * Phrases that can only mean a secret: they count in a field's name, title
 * and description ("Paste your API key", "Ihr Passwort").
 */
export const SECRET_PHRASES: readonly string[] = [
  // English
  'password',
  'passwd',
  'passphrase',
  'passcode',
  'api key',
  'private key',
  'secret key',
  'signing key',
  'encryption key',
  'license key',
  'client secret',
  'api secret',
  'access token',
  'auth token',
  'bearer token',
  'refresh token',
  'session token',
  'personal access token',
  'seed phrase',
  'recovery phrase',
  'backup phrase',
  'mnemonic phrase',
  'credit card number',
  'security code',
  'cvv',
  'cvc',
  'ssn',
  'social security number',
  // German
  'passwort',
  'passworter',
  'kennwort',
  'geheimzahl',
  'zugangsdaten',
  'api schlussel',
  'privater schlussel',
  // French
  'mot de passe',
  'mots de passe',
  'cle api',
  'cle privee',
  'cle secrete',
  'code secret',
  'jeton d acces',
  'phrase de recuperation',
  // Spanish, Portuguese, Italian, Dutch
  'contrasena',
  'clave api',
  'clave privada',
  'clave secreta',
  'frase semilla',
  'frase de recuperacion',
  'senha',
  'chave api',
  'chave privada',
  'chiave api',
  'chiave privata',
  'wachtwoord',
  // Russian
  'пароль',
  'ключ api',
  'приватный ключ',
  'секретный ключ',
  // Chinese (simplified and traditional): password, key, private key, token, verification code, credentials, mnemonic, card number, security code, ID number
  '密码',
  '密碼',
  '口令',
  '密钥',
  '密鑰',
  '秘钥',
  '私钥',
  '私鑰',
  '令牌',
  '验证码',
  '驗證碼',
  '凭据',
  '凭证',
  '憑證',
  '助记词',
  '助記詞',
  '信用卡号',
  '安全码',
  '身份证号',
  // Japanese: password, PIN, private key, API key, access token, seed/recovery phrase
  'パスワード',
  '暗証番号',
  '秘密鍵',
  'apiキー',
  'アクセストークン',
  'シードフレーズ',
  'リカバリーフレーズ',
  // Korean: password
  '비밀번호',
];

/**
 * Words that ask for a secret as a field's label (its name or title) but
 * may mean something else in a sentence: "pin this note", "a token of
 * thanks", "keep it secret". They do not count in a description.
 */
export const SECRET_LABEL_WORDS: readonly string[] = [
  'pwd',
  'secret',
  'token',
  'pin',
  'pat',
  'otp',
  'totp',
  'hotp',
  'credential',
  'credentials',
  'mnemonic',
  'access key',
  'card number',
  'auth code',
  'recovery code',
  'backup code',
  'verification code',
  'jeton',
];

/** A key, token or secret of a named service is one of its credentials: "OpenAI key", "GitHub PAT", "Stripe secret". */
export const SERVICES: readonly string[] = [
  'openai',
  'anthropic',
  'claude',
  'gemini',
  'google',
  'github',
  'gitlab',
  'bitbucket',
  'aws',
  'azure',
  'gcp',
  'stripe',
  'slack',
  'discord',
  'telegram',
  'twilio',
  'sendgrid',
  'mailgun',
  'cloudflare',
  'hugging face',
  'mistral',
  'groq',
  'deepseek',
  'cohere',
  'openrouter',
  'replicate',
  'notion',
  'vercel',
  'heroku',
  'npm',
  'pypi',
  'docker hub',
];

/** What a service's credential is called after its name. */
export const SERVICE_CREDENTIALS: readonly string[] = ['key', 'token', 'pat', 'secret'];

/**
 * Words after a secret's name that make the field about the secret, not the
 * secret itself ("password length", "token count"); and words before it
 * that do the same ("max tokens", "minimum password").
 */
export const MEASURES_AFTER: ReadonlySet<string> = new Set(['count', 'counts', 'limit', 'limits', 'length', 'budget', 'usage', 'size', 'policy', 'strength', 'expiry', 'age', 'rules']);
export const MEASURES_BEFORE: ReadonlySet<string> = new Set(['max', 'min', 'maximum', 'minimum', 'num', 'total']);

/**
 * The shapes of well-known credentials (an OpenAI or Anthropic `sk-…`,
 * Stripe `sk_live_`, GitHub `ghp_…`/`github_pat_…`, GitLab `glpat-`, Slack
 * `xoxb-…`, an AWS access key id `AKIA…`, a Google API key `AIza…`), as a
 * field's text names them: "your key (sk-…)". Not inside another word
 * (`task-`, `desk-`), and `sk-` not as the Slovak locale (`sk-SK`).
 */
export const KEY_SHAPES: readonly RegExp[] = [
  /(?<![\p{L}\p{N}_-])sk-(?![a-z]{2}(?![\p{L}\p{N}_-]))/iu,
  /(?<![\p{L}\p{N}_-])[sr]k_(?:live|test)_/u,
  /(?<![\p{L}\p{N}_-])gh[pousr]_/u,
  /(?<![\p{L}\p{N}_-])github_pat_/iu,
  /(?<![\p{L}\p{N}_-])glpat-/u,
  /(?<![\p{L}\p{N}_-])xox[abposr]-/u,
  /(?<![\p{L}\p{N}_-])AKIA(?![a-z])/u,
  /(?<![\p{L}\p{N}_-])AIza/u,
];
