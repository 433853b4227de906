import type { HLJSApi, LanguageFn } from 'highlight.js';

/**
 * The languages fenced code is highlighted in (highlight.js grammars, each
 * its own chunk, loaded on first use), and what fence names mean them. Used
 * by the highlight worker, and by the page itself where no worker can start.
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
  ['sh', 'bash'],
  ['shell', 'bash'],
  ['zsh', 'bash'],
  ['console', 'bash'],
  ['h', 'c'],
  ['c++', 'cpp'],
  ['hpp', 'cpp'],
  ['cc', 'cpp'],
  ['cs', 'csharp'],
  ['c#', 'csharp'],
  ['patch', 'diff'],
  ['golang', 'go'],
  ['toml', 'ini'],
  ['js', 'javascript'],
  ['jsx', 'javascript'],
  ['mjs', 'javascript'],
  ['cjs', 'javascript'],
  ['jsonc', 'json'],
  ['kt', 'kotlin'],
  ['md', 'markdown'],
  ['py', 'python'],
  ['rb', 'ruby'],
  ['rs', 'rust'],
  ['ts', 'typescript'],
  ['tsx', 'typescript'],
  ['mts', 'typescript'],
  ['html', 'xml'],
  ['svg', 'xml'],
  ['vue', 'xml'],
  ['yml', 'yaml'],
]);

/** The grammar a fence name means, or undefined for one we do not highlight. */
export function grammarOf(fence: string): string | undefined {
  const name = fence.trim().toLowerCase();
  const grammar = ALIASES.get(name) ?? name;
  return Object.hasOwn(GRAMMARS, grammar) ? grammar : undefined;
}

const loading = new WeakMap<HLJSApi, Map<string, Promise<void>>>();

/** The code as highlighted HTML (highlight.js escapes the text itself), or undefined for a language it does not know. */
export async function highlightWith(hljs: HLJSApi, code: string, fence: string): Promise<string | undefined> {
  const grammar = grammarOf(fence);
  if (!grammar) return undefined;
  const registered = loading.get(hljs) ?? new Map<string, Promise<void>>();
  loading.set(hljs, registered);
  let ready = registered.get(grammar);
  if (!ready) {
    ready = GRAMMARS[grammar]!().then((m) => hljs.registerLanguage(grammar, m.default));
    registered.set(grammar, ready);
  }
  await ready;
  return hljs.highlight(code, { language: grammar, ignoreIllegals: true }).value;
}
