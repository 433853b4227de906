import { mulberry32 } from '../seededRandom.js';

/**
 * Made-up text and stand-in embeddings for the knowledge benches and the
 * recall tests, from a seeded PRNG (mulberry32) so every run builds the same
 * base, and every chunk is its own text (the generator this replaces
 * repeated itself after about 10,000 words: its state overflowed a double).
 *
 * The vectors are shaped like a real model's, not like noise: text of one
 * topic lands near that topic's centroid, so the base is made of clusters
 * (what an HNSW graph meets in practice), and similar texts have similar
 * vectors. Each word has a fixed vector (its topic's centroid plus noise of
 * its own); a text's vector is the normalized sum of its words' vectors. It
 * is a function of the text only, so the bench's embedding server answers
 * queries with the same function the chunks were built with.
 */

export const DIMENSIONS = 768;
const TOPICS = 64;
const VOCABULARY = 8000;
/** How much of a word's vector is its topic's centroid (the rest its own noise). */
const TOPIC_WEIGHT = 0.25;
/** How many of a chunk's words come from its topic (the rest from the whole vocabulary, as function words do). */
const ON_TOPIC = 0.6;
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'ze', 'po', 'an', 'el', 'or', 'us', 'ix'];

/** Word `i` spelled from the digits of `i + 15` in base 15: two syllables or more, each word its own spelling. */
function spell(i: number): string {
  let word = '';
  for (let n = i + SYLLABLES.length; n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
  return word;
}

const WORDS = Array.from({ length: VOCABULARY }, (_, i) => spell(i));
/** Word `i`'s topic; the words of a topic, most frequent first (the lower its index, the more often it is drawn). */
const topicOf = (i: number) => i % TOPICS;
const TOPIC_WORDS = Array.from({ length: TOPICS }, (_, t) => WORDS.filter((_, i) => topicOf(i) === t));

function gaussian(random: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

function unit(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  for (let i = 0; i < vector.length; i++) vector[i]! *= scale;
  return vector;
}

function randomUnit(seed: number): Float32Array {
  const normal = gaussian(mulberry32(seed));
  return unit(Float32Array.from({ length: DIMENSIONS }, normal));
}

/** Topic centroids, made on first use (see wordVector). */
let centroids: Float32Array[] | undefined;
const centroid = (topic: number) => (centroids ??= Array.from({ length: TOPICS }, (_, t) => randomUnit(1_000_003 + t)))[topic]!;

/** A string's seed (FNV-1a): a token outside the vocabulary (a heading's number, code) still has a vector of its own. */
function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

const wordIndex = new Map(WORDS.map((word, i) => [word, i]));
const wordVectors = new Map<string, Float32Array>();

/**
 * A word's vector, made the first time it is asked for and kept: the whole
 * vocabulary's vectors are 25 MB (8,000 × 768 float32) and about 60 MB of
 * RSS to make, and a process that only opens and searches a base (the scale
 * bench's child, whose RSS is the store's figure) embeds a few query words,
 * not the vocabulary. A word's vector depends on the word only, so the
 * order they are made in changes nothing.
 */
function wordVector(word: string): Float32Array {
  let vector = wordVectors.get(word);
  if (!vector) {
    const i = wordIndex.get(word);
    const own = randomUnit(seedOf(word));
    if (i !== undefined) {
      const topic = centroid(topicOf(i));
      vector = unit(own.map((v, d) => TOPIC_WEIGHT * topic[d]! + (1 - TOPIC_WEIGHT) * v));
    } else vector = own;
    wordVectors.set(word, vector);
  }
  return vector;
}

/** The stand-in embedding of `text`: the normalized sum of its words' vectors. */
export function vectorOf(text: string): number[] {
  const sum = new Float32Array(DIMENSIONS);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const vector = wordVector(word);
    for (let d = 0; d < DIMENSIONS; d++) sum[d]! += vector[d]!;
  }
  return Array.from(unit(sum));
}

/** A Zipf-like draw of an index below `n`: the first ones far more often, as words in real text. */
const skewed = (random: () => number, n: number) => Math.floor(n * random() ** 2.5);

/** Words from the whole vocabulary, Zipf-like (for headings, lists and code). */
export function makeWords(seed: number): () => string {
  const random = mulberry32(seed);
  return () => WORDS[skewed(random, VOCABULARY)]!;
}

/**
 * Chunks of text (`words` words each) on topics: a document keeps to one
 * topic, a chunk wanders off to another now and then; within a chunk most
 * words are its topic's, the rest from the whole vocabulary.
 */
export function makeChunks(seed: number, words = 55): { chunk(): string; nextDocument(): void; query(): string } {
  const random = mulberry32(seed);
  let documentTopic = Math.floor(random() * TOPICS);
  const draw = (topic: number) => (random() < ON_TOPIC ? TOPIC_WORDS[topic]![skewed(random, TOPIC_WORDS[topic]!.length)]! : WORDS[skewed(random, VOCABULARY)]!);
  return {
    chunk() {
      const topic = random() < 0.8 ? documentTopic : Math.floor(random() * TOPICS);
      return Array.from({ length: words }, () => draw(topic)).join(' ') + '.';
    },
    nextDocument() {
      documentTopic = Math.floor(random() * TOPICS);
    },
    /** Three words of one topic, as a person asks. */
    query() {
      const topic = Math.floor(random() * TOPICS);
      return Array.from({ length: 3 }, () => TOPIC_WORDS[topic]![skewed(random, TOPIC_WORDS[topic]!.length)]!).join(' ');
    },
  };
}
