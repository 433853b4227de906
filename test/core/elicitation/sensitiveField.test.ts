import { describe, expect, it } from 'vitest';
import { checkForm } from '../../../src/core/elicitation/requestedSchema.js';
import { sensitiveFieldReason } from '../../../src/core/elicitation/sensitiveField.js';

/**
 * A form field that asks for a secret is refused, whatever language or
 * spelling it asks in (docs/using/elicitation.md#what-is-refused); a field
 * that only shares letters or a sentence's word with a secret is not.
 */

interface Field {
  name: string;
  title?: string;
  description?: string;
}

/** Each asks for a secret; `where` is the part of the field that says so. */
const SECRET_FIELDS: [where: 'name' | 'title' | 'description', field: Field][] = [
  // Spellings of one word (camelCase, snake, kebab, capitals, full width)
  ['name', { name: 'passWord' }],
  ['name', { name: 'PASS_WORD' }],
  ['name', { name: 'user-pass-word' }],
  ['name', { name: 'passwords' }],
  ['name', { name: 'APIKey' }],
  ['name', { name: 'x-api-key' }],
  ['name', { name: 'refresh_token' }],
  ['name', { name: 'private_key' }],
  ['name', { name: 'ssn' }],
  ['title', { name: 'value', title: 'ＰＡＳＳＷＯＲＤ' }],
  // A service's key, token or PAT
  ['title', { name: 'value', title: 'OpenAI key' }],
  ['title', { name: 'value', title: 'GitHub PAT' }],
  ['name', { name: 'githubPat' }],
  ['name', { name: 'stripeSecret' }],
  ['title', { name: 'value', title: 'Hugging Face token' }],
  // Other languages
  ['title', { name: 'value', title: 'Passwort' }],
  ['title', { name: 'value', title: 'API-Schlüssel' }],
  ['title', { name: 'value', title: 'Mot de passe' }],
  ['name', { name: 'motDePasse' }],
  ['title', { name: 'value', title: 'Clé API' }],
  ['description', { name: 'value', description: "Votre jeton d'accès" }],
  ['title', { name: 'value', title: 'Contraseña' }],
  ['title', { name: 'value', title: 'Senha' }],
  ['title', { name: 'value', title: 'Wachtwoord' }],
  ['title', { name: 'value', title: 'Пароль' }],
  ['title', { name: 'value', title: '口令' }],
  ['title', { name: 'value', title: '访问令牌' }],
  ['description', { name: 'value', description: '请输入您的密码' }],
  ['description', { name: 'value', description: '請輸入密碼' }],
  ['title', { name: 'value', title: 'パスワード' }],
  ['description', { name: 'value', description: 'APIキーを入力してください' }],
  ['title', { name: 'value', title: '비밀번호를 입력하세요' }],
  // Wallets, cards, identity
  ['title', { name: 'value', title: 'Recovery phrase' }],
  ['description', { name: 'words', description: 'Your 12-word recovery phrase' }],
  ['title', { name: 'value', title: 'Seed phrase' }],
  ['name', { name: 'mnemonic' }],
  ['title', { name: 'code', title: 'Card PIN' }],
  ['description', { name: 'code', description: 'The 3-digit CVV on the back of your card' }],
  ['title', { name: 'value', title: 'Credit card number' }],
  ['description', { name: 'id', description: 'Your social security number' }],
  // Descriptions that ask for a key by its shape
  ['description', { name: 'value', description: 'Your key (it starts with sk-)' }],
  ['description', { name: 'value', description: 'Paste the one that begins sk-proj-…' }],
  ['description', { name: 'value', description: 'Looks like sk-ant-api03-…' }],
  ['description', { name: 'value', description: 'A token such as ghp_…' }],
  ['description', { name: 'value', description: 'Fine-grained: github_pat_…' }],
  ['description', { name: 'value', description: 'The bot one, xoxb-…' }],
  ['description', { name: 'value', description: 'The id AWS gave you (AKIA…)' }],
];

/** Each shares letters or a sentence's word with a secret and asks for none. */
const PLAIN_FIELDS: Field[] = [
  { name: 'username', title: 'User name' },
  { name: 'passage', title: 'Passage', description: 'Pick a passage to quote' },
  { name: 'passport', title: 'Passport country' },
  { name: 'compass', title: 'Compass heading' },
  { name: 'tokenizerModel', title: 'Tokenizer model' },
  { name: 'maxTokens', title: 'Max tokens', description: 'Tokens the answer may use' },
  { name: 'tokenCount', title: 'Token count' },
  { name: 'passwordLength', title: 'Password length', description: 'How long the generated one is' },
  { name: 'spinner', title: 'Spinning top' },
  { name: 'sortKey', title: 'Sort key' },
  { name: 'primaryKey', title: 'Primary key' },
  { name: 'musicalKey', title: 'Key of the song' },
  { name: 'keyboard', title: 'Keyboard layout' },
  { name: 'secretary', title: 'Secretary' },
  { name: 'pattern', title: 'Pattern' },
  { name: 'opinion', title: 'Opinion' },
  { name: 'language', title: 'Language', description: 'A locale such as sk-SK or en-US' },
  { name: 'job', description: 'The task-id of the job to watch' },
  { name: 'profile', description: 'Shown on your GitHub profile' },
  // A description may warn against a secret (server-everything's own wording) or say a label word in a sentence.
  { name: 'integer', description: 'Your favorite integer (do not give us your phone number, pin, or other sensitive info)' },
  { name: 'note', description: 'Pin this note to the top; a token of thanks is welcome' },
];

describe('a form field that asks for a secret', () => {
  it.each(SECRET_FIELDS)('is refused by its %s: %j', (where, field) => {
    expect(sensitiveFieldReason(field.name, field.title, field.description)).toMatch(new RegExp(`^its ${where} `));
    const check = checkForm('Tell us', { type: 'object', properties: { [field.name]: { type: 'string', title: field.title, description: field.description } } });
    expect(check.ok).toBe(false);
  });

  it.each(PLAIN_FIELDS)('is not this one: %j', (field) => {
    expect(sensitiveFieldReason(field.name, field.title, field.description)).toBeUndefined();
  });
});
