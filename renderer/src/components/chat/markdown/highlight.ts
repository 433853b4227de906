import type { HLJSApi, LanguageFn } from 'highlight.js';

/**
 * Code highlighting, loaded only when a message shows a fenced code block:
 * highlight.js's core once, then each language's grammar on first use (one
 * small chunk per language, so a conversation about Python never loads Go).
 * Fence names map to grammars here; an unknown name stays plain text.
 */
const GRAMMARS: Record<string, () => Promise<{ default: LanguageFn }>> = {
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  diff: () => import('highlight.js/lib/languages/diff'),
  go: () => import('highlight.js/lib/languages/go'),
  ini: () => import('highlight.js/lib/languages/ini'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  php: () => import('highlight.js/lib/languages/php'),
  python: () => import('highlight.js/lib/languages/python'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
};

const ALIASES = new Map<string, string>([
  ['sh', 'bash'], ['shell', 'bash'], ['zsh', 'bash'], ['console', 'bash'],
  ['h', 'c'], ['c++', 'cpp'], ['hpp', 'cpp'], ['cc', 'cpp'], ['cs', 'csharp'], ['c#', 'csharp'],
  ['patch', 'diff'], ['golang', 'go'], ['toml', 'ini'], ['js', 'javascript'], ['jsx', 'javascript'], ['mjs', 'javascript'], ['cjs', 'javascript'],
  ['jsonc', 'json'], ['kt', 'kotlin'], ['md', 'markdown'], ['py', 'python'], ['rb', 'ruby'], ['rs', 'rust'],
  ['ts', 'typescript'], ['tsx', 'typescript'], ['mts', 'typescript'], ['html', 'xml'], ['svg', 'xml'], ['vue', 'xml'], ['yml', 'yaml'],
]);

/** The grammar a fence name means, or undefined for one we do not highlight. */
export function grammarOf(fence: string): string | undefined {
  const name = fence.trim().toLowerCase();
  const grammar = ALIASES.get(name) ?? name;
  return Object.hasOwn(GRAMMARS, grammar) ? grammar : undefined;
}

let core: Promise<HLJSApi> | undefined;
const loading = new Map<string, Promise<void>>();

/** highlight.js with `grammar` registered (each loaded once, whoever asks first). */
async function withGrammar(grammar: string): Promise<HLJSApi> {
  core ??= import('highlight.js/lib/core').then((m) => m.default);
  const hljs = await core;
  let registered = loading.get(grammar);
  if (!registered) {
    registered = GRAMMARS[grammar]!().then((m) => hljs.registerLanguage(grammar, m.default));
    loading.set(grammar, registered);
  }
  await registered;
  return hljs;
}

/** The code as highlighted HTML (highlight.js escapes the text itself), or undefined for a language it does not know. */
export async function highlight(code: string, fence: string): Promise<string | undefined> {
  const grammar = grammarOf(fence);
  if (!grammar) return undefined;
  const hljs = await withGrammar(grammar);
  return hljs.highlight(code, { language: grammar, ignoreIllegals: true }).value;
}
