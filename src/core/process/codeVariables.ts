/**
 * Variables that decide which code a process runs, or which code it
 * downloads and trusts: set by an imported config or a plugin, each runs
 * (or fetches) code that the command shown and trust's fingerprint do not
 * say. The import plan and the trust run plan warn for each, with its
 * reason (docs/using/mcp-servers.md#managing-servers, docs/rules/trust.md#the-run-plan).
 *
 * Names are matched without regard to case: Windows names are
 * case-insensitive (`Path`), and npm reads `npm_config_*` in any case.
 * Proxies are not here: a proxy sees the traffic but, without a CA of its
 * own (which the certificate rule catches), cannot change what TLS brings.
 */

interface CodeVariableRule {
  pattern: RegExp;
  /** What the variable decides, as the warnings say it in brackets. */
  why: string;
}

const CODE_VARIABLE_RULES: readonly CodeVariableRule[] = [
  { pattern: /^PATH$/i, why: 'the folders its command, and every program it starts, are looked up in' },
  {
    pattern: /^(LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_.*)$/i,
    why: 'a library loaded into the server and every program it starts',
  },
  {
    pattern: /^(NODE_OPTIONS|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|PERL5OPT|RUBYOPT)$/i,
    why: "the interpreter's options, which load code before the server's own: --require, --import, -javaagent",
  },
  {
    pattern: /^(NODE_PATH|PYTHONPATH|PYTHONHOME|PYTHONUSERBASE|PYTHONSTARTUP|PERL5LIB|PERLLIB|RUBYLIB|GEM_HOME|GEM_PATH|CLASSPATH)$/i,
    why: 'where modules are found: a module of the same name there runs instead of the one meant',
  },
  { pattern: /^(BASH_ENV|ENV|ZDOTDIR)$/i, why: 'a file every shell it starts runs first' },
  { pattern: /^ELECTRON_RUN_AS_NODE$/i, why: 'an Electron app run as plain Node, running whatever script it is given' },
  // Credentials (`_auth`, `_authToken`, `_password`) only sign in to the registry another setting names.
  {
    pattern: /^npm_config_(?!.*(_auth|_password))/i,
    why: "npm's settings, its registry, config files and script shell among them: npx and npm fetch and run packages as they say",
  },
  {
    pattern: /^(YARN_.*REGISTRY.*|BUN_CONFIG_REGISTRY|COREPACK_NPM_REGISTRY)$/i,
    why: 'the registry packages are downloaded from: the server fetched there is not the one its name promises',
  },
  {
    pattern: /^(PIP_(EXTRA_)?INDEX_URL|PIP_FIND_LINKS|PIP_TRUSTED_HOST|PIP_CONFIG_FILE|UV_.*INDEX.*|UV_FIND_LINKS|UV_INSECURE_HOST|UV_CONFIG_FILE|UV_.*INSTALL_MIRROR)$/i,
    why: 'the index Python packages, and Python itself, are downloaded from: uvx and pip fetch the server there',
  },
  {
    pattern: /^(GOPROXY|GOSUMDB|GONOSUMDB|GONOSUMCHECK|GOINSECURE|GOFLAGS|GOPRIVATE|GONOPROXY)$/i,
    why: 'where Go modules are downloaded from and whether their checksums are checked',
  },
  { pattern: /^CARGO_REGISTR(Y|IES)_/i, why: 'the registry Rust crates are downloaded from' },
  {
    pattern: /^(NODE_EXTRA_CA_CERTS|NODE_TLS_REJECT_UNAUTHORIZED|SSL_CERT_.*|REQUESTS_CA_BUNDLE|CURL_CA_BUNDLE|PIP_CERT|GIT_SSL_.*|PYTHONHTTPSVERIFY)$/i,
    why: 'which certificates are trusted: a download or a connection may come from whoever holds that certificate',
  },
  {
    pattern: /^(GIT_CONFIG.*|GIT_SSH|GIT_SSH_COMMAND|GIT_ASKPASS|SSH_ASKPASS|GIT_PROXY_COMMAND|GIT_EXEC_PATH|GIT_TEMPLATE_DIR|GIT_EXTERNAL_DIFF|GIT_PAGER|GIT_EDITOR|GIT_SEQUENCE_EDITOR)$/i,
    why: 'a program git runs, or config git reads that may name more programs, whenever the server uses git',
  },
];

/** What `variable`, when a process is started with it, decides about the code it runs; undefined for a variable that decides none. */
export function whyChangesCode(variable: string): string | undefined {
  return CODE_VARIABLE_RULES.find((rule) => rule.pattern.test(variable))?.why;
}

export const changesCode = (variable: string): boolean => whyChangesCode(variable) !== undefined;
