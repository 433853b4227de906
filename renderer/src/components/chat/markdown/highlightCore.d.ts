// highlight.js types its languages and its full build, not its core entry (the one that loads no grammar).
declare module 'highlight.js/lib/core' {
  import type { HLJSApi } from 'highlight.js';
  const hljs: HLJSApi;
  export default hljs;
}
