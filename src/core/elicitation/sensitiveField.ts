import { KEY_SHAPES, MEASURES_AFTER, MEASURES_BEFORE, SECRET_LABEL_WORDS, SECRET_PHRASES, SERVICE_CREDENTIALS, SERVICES } from './secretVocabulary.js';

/**
 * Whether a form field asks for something secret (docs/using/elicitation.md#what-is-refused):
 * the spec says a server MUST NOT ask for passwords, API keys, tokens or the
 * like through a form (it uses url mode, where the user types them on the
 * server's own page).
 *
 * The field's name, title and description are normalised (accents off,
 * camelCase, snake_case and kebab-case split, lower case) and read word by
 * word against a vocabulary (secretVocabulary.ts), so one entry meets every
 * spelling: `passWord`, `PASS_WORD` and `pass-word` are "password". The
 * label (name and title) counts every secret word; the description only
 * phrases that can mean nothing else, and the shapes of known keys (`sk-…`):
 * a description that says "do not give us your PIN" is no request for one.
 */

/** Scripts written without spaces between words (or with particles attached to them): their entries are found inside the text. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** The most words one entry is read across (`jeton d'accès`, `personal access token`, and one more for a word split in two). */
const MOST_WORDS = 4;

/** Text as the vocabulary is matched: full-width letters narrowed, accents off Latin letters, camelCase and acronyms split, lower case. */
function normalised(text: string): string {
  return text
    .normalize('NFKC')
    .normalize('NFD')
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC')
    .replace(/(\p{Ll}|\p{N})(?=\p{Lu})/gu, '$1 ')
    .replace(/(\p{Lu})(?=\p{Lu}\p{Ll})/gu, '$1 ')
    .toLowerCase();
}

const wordsOf = (text: string) =>
  normalised(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** Entries of spaced scripts keyed by their words run together (`mot de passe` → `motdepasse`), so a text's words are joined the same way; the others as normalised text. */
interface Vocabulary {
  spaced: Map<string, string>;
  unspaced: { text: string; phrase: string }[];
}

function vocabularyOf(phrases: readonly string[]): Vocabulary {
  const vocabulary: Vocabulary = { spaced: new Map(), unspaced: [] };
  for (const phrase of phrases) {
    if (UNSPACED.test(phrase)) vocabulary.unspaced.push({ text: normalised(phrase), phrase });
    else vocabulary.spaced.set(wordsOf(phrase).join(''), phrase);
  }
  return vocabulary;
}

const serviceCredentials = SERVICES.flatMap((service) => SERVICE_CREDENTIALS.map((credential) => `${service} ${credential}`));
/** What a description may say: only what can mean nothing but a secret. */
const SENTENCE = vocabularyOf([...SECRET_PHRASES, ...serviceCredentials]);
/** What a name or title may say: every secret word. */
const LABEL = vocabularyOf([...SECRET_PHRASES, ...serviceCredentials, ...SECRET_LABEL_WORDS]);

/** The field is about the secret (its length, a count of tokens), not the secret itself. */
const measured = (words: string[], first: number, last: number) => MEASURES_AFTER.has(words[last + 1] ?? '') || MEASURES_BEFORE.has(words[first - 1] ?? '');

/**
 * The vocabulary entry `text` holds, if any: each run of up to MOST_WORDS
 * words, run together, is looked up as it is and without a plural `s`.
 */
function entryIn(text: string, vocabulary: Vocabulary): string | undefined {
  const plain = normalised(text);
  const unspaced = vocabulary.unspaced.find((entry) => plain.includes(entry.text));
  if (unspaced) return unspaced.phrase;
  const words = wordsOf(text);
  for (let first = 0; first < words.length; first++) {
    let joined = '';
    for (let last = first; last < Math.min(words.length, first + MOST_WORDS); last++) {
      joined += words[last];
      const phrase = vocabulary.spaced.get(joined) ?? (joined.endsWith('s') ? vocabulary.spaced.get(joined.slice(0, -1)) : undefined);
      if (phrase !== undefined && !measured(words, first, last)) return phrase;
    }
  }
  return undefined;
}

/** The start of a known key's shape in `text` (`sk-`, `ghp_`, `AKIA`), if any. */
function keyShapeIn(text: string): string | undefined {
  for (const shape of KEY_SHAPES) {
    const found = shape.exec(text);
    if (found) return found[0];
  }
  return undefined;
}

/** The word that makes this field look like it asks for a secret, for the refusal; undefined when none does. */
export function sensitiveFieldReason(name: string, title: string | undefined, description: string | undefined): string | undefined {
  if (entryIn(name, LABEL) ?? keyShapeIn(name)) return `its name "${name}"`;
  if (title !== undefined && (entryIn(title, LABEL) ?? keyShapeIn(title))) return `its title "${title}"`;
  if (description !== undefined) {
    const phrase = entryIn(description, SENTENCE) ?? keyShapeIn(description);
    if (phrase) return `its description ("${phrase}")`;
  }
  return undefined;
}
