import type { UiAppMeta } from '../../shared/appContribution.js';

const VARIABLE = /\$\{(\w+)\}|\$(\w+)/g;

/** Replaces `$name` / `${name}` from `vars` in every string, deeply. Unknown names stay as written. */
export function expandVariables(value: unknown, vars: Readonly<Record<string, string>>): unknown {
  if (typeof value === 'string') {
    return value.replace(VARIABLE, (whole, braced: string | undefined, bare: string | undefined) => {
      const name = (braced ?? bare)!;
      return Object.hasOwn(vars, name) ? vars[name]! : whole;
    });
  }
  if (Array.isArray(value)) return value.map((item) => expandVariables(item, vars));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandVariables(v, vars)]));
  }
  return value;
}

/** `$dataDir` / `${dataDir}` (any UiAppMeta key) in callMeta. */
export function expandMetaVariables(value: unknown, vars: UiAppMeta): unknown {
  return expandVariables(value, vars);
}

export interface CallMeta {
  [key: string]: unknown;
  chatos: { uiApp: UiAppMeta };
  workdir: string;
}

/**
 * The `_meta` sent with every `tools/call` of an app's server: its expanded
 * `callMeta`, then `chatos.uiApp` and `workdir`. The host's keys win over the
 * plugin's so an app cannot misreport who it is; `workdir` defaults to the
 * data folder and may be overridden by `callMeta.workdir`.
 */
export function buildCallMeta(rawCallMeta: Record<string, unknown>, uiApp: UiAppMeta): CallMeta {
  const expanded = expandMetaVariables(rawCallMeta, uiApp) as Record<string, unknown>;
  const workdir = typeof expanded.workdir === 'string' && expanded.workdir !== '' ? expanded.workdir : uiApp.dataDir;
  return { ...expanded, chatos: { uiApp }, workdir };
}
