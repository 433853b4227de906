// What a repository's own config may not choose. Its `.git/config` (and
// what that includes, and `config.worktree`) is written by whoever wrote the
// folder: an unpacked archive, a shared folder, another tool. git runs the
// programs that config names from commands that look harmless: a clean
// filter on `status` and `diff` (git re-hashes a touched file through it),
// gpg on `log` (log.showSignature) and `commit` (commit.gpgSign), a smudge
// filter on `switch`. So every key that names a program, or turns one on,
// is set again on the command line (which git reads last, and hands on to
// the git processes it starts): to what the user's own config (system,
// global, command line) says, else to git's default or an inert value.
// Pure: it reads the output of `git config --list --show-scope -z` and
// returns `-c` arguments.

/** Config set on every call, whoever set it before: what no tool here needs and what would run or wait for something. */
export const FIXED_CONFIG = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.pager=cat',
  'color.ui=false',
  'core.quotePath=false',
  // A submodule is another repository with a config of its own, which the overrides below never saw.
  'submodule.recurse=false',
  'status.submoduleSummary=false',
  // No `git gc --auto` / `git maintenance` after a commit: a background process that outlives the call.
  'gc.auto=0',
  'maintenance.auto=false',
  // Belt and braces: GIT_ALLOW_PROTOCOL (see gitEnv) is what refuses every transport.
  'protocol.allow=never',
];

/** Scopes the user wrote. `local` and `worktree` (and files they include) are the folder's. */
const USER_SCOPES = new Set(['system', 'global', 'command']);

/**
 * Keys naming a program, by the part after the last dot: filter.<x>.clean,
 * smudge, process; diff.<x>.command, textconv, diff.external; merge.<x>.driver;
 * gpg.program, gpg.<format>.program, gpg.ssh.defaultKeyCommand;
 * core.sshCommand, askPass, editor, pager, gitProxy, alternateRefsCommand;
 * sequence.editor; credential.helper; interactive.diffFilter;
 * uploadpack.packObjectsHook; remote.<x>.uploadpack, receivepack, vcs (a
 * remote helper); hook.<x>.command; difftool/mergetool/browser/man.<x>.cmd;
 * trailer.<x>.command; sendemail.toCmd. And keys turning a program on:
 * log.showSignature, commit/tag/push.gpgSign, merge.verifySignatures,
 * filter.<x>.required (a filter that must run fails the call instead).
 */
const PROGRAM_NAME =
  /(?:cmd|command|program|helper|driver|hook|askpass|editor|pager|textconv|difffilter|gitproxy)$|^(?:clean|smudge|process|required|external|uploadpack|receivepack|vcs|showsignature|gpgsign|verifysignatures|fsmonitor|hookspath)$/;
/** Sections where `<x>.path` is the program itself (git-lfs's custom transfer agents among them); never include.path. */
const PATH_IS_PROGRAM = new Set(['difftool', 'mergetool', 'browser', 'man', 'lfs']);

/** The key's section (lower case) and name (lower case); the subsection between them keeps its case and may hold dots. */
function partsOf(key) {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  return { section: key.slice(0, first), name: key.slice(last + 1) };
}

export function namesProgram(key) {
  const { section, name } = partsOf(key);
  return section === 'pager' || PROGRAM_NAME.test(name) || (name === 'path' && PATH_IS_PROGRAM.has(section));
}

/**
 * What a key gets when the user's own config does not set it: git's own
 * default where that is a program git finds on PATH (gpg signs and verifies
 * with it only when the user's config asks), else an empty string, which is
 * "no program" and "false" for every key above (an empty hooksPath would
 * look in /, hence /dev/null).
 */
const DEFAULTS = new Map([
  ['core.hookspath', '/dev/null'],
  ['gpg.program', 'gpg'],
  ['gpg.openpgp.program', 'gpg'],
  ['gpg.x509.program', 'gpgsm'],
  ['gpg.ssh.program', 'ssh-keygen'],
]);
const inertValue = (key) => DEFAULTS.get(key) ?? '';

/** The entries of `git config --list --show-scope -z`: scope NUL key [LF value] NUL, a key without a value having no LF. */
export function parseConfigList(text) {
  const fields = text.split('\0');
  const entries = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const pair = fields[i + 1];
    const lf = pair.indexOf('\n');
    entries.push({ scope: fields[i], key: lf < 0 ? pair : pair.slice(0, lf), value: lf < 0 ? null : pair.slice(lf + 1) });
  }
  return entries;
}

/** A key git cannot be given on the command line: `-c` splits at the first "=", and a subsection may hold one. */
export class UnsettableKey extends Error {
  constructor(key) {
    super(key);
    this.key = key;
  }
}

/**
 * The `-c` arguments that take back every program key the repository's own
 * config set. A key is set first to its default (for credential.helper,
 * an empty value also empties the list), then to each value the user's own
 * config gave it, in order: the last one counts for a single value, and a
 * list gets the user's entries back without the folder's.
 */
export function overridesFor(entries) {
  const fromFolder = new Set();
  const fromUser = new Map();
  for (const { scope, key, value } of entries) {
    if (!namesProgram(key)) continue;
    if (!USER_SCOPES.has(scope)) fromFolder.add(key);
    else if (value !== null) fromUser.set(key, [...(fromUser.get(key) ?? []), value]);
  }
  const args = [];
  for (const key of fromFolder) {
    if (key.includes('=')) throw new UnsettableKey(key);
    for (const value of [inertValue(key), ...(fromUser.get(key) ?? [])]) args.push('-c', `${key}=${value}`);
  }
  return args;
}
