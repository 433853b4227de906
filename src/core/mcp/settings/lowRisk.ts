/**
 * docs/rules/confirmation.md#permission-levels: a `write` tool runs without asking only for "low-risk writes
 * of whitelisted fields". Each write tool declares its whitelist with the
 * tool (`SettingsTool.lowRisk`): the arguments a call may give and still run
 * at once, each for any value or for the listed values only (switching a
 * tool off narrows what models may do; switching it on widens it). A call
 * that gives anything else (an agent's apps, servers or knowledge bases, a
 * base's embedding model, a tool switched back on, an argument no one
 * listed) asks the user first, as a `confirm` tool does: the decision is
 * made per call, from its arguments, so a prompt-injected model cannot
 * widen what it may use through a tool that asks no one.
 */

/** How much of one argument a call may give without asking: any value, or only these values (compared with `===`). */
export type LowRiskArgument = 'any' | readonly (string | number | boolean | null)[];

/** A write tool's whitelist: argument name → what of it is low-risk. Names not listed are never low-risk. */
export type LowRiskArguments = Readonly<Record<string, LowRiskArgument>>;

/**
 * The arguments of this call that are not low-risk, in the order given:
 * empty when the call may run without asking. Names come from the model, so
 * the whitelist is read with `Object.hasOwn` (a `__proto__` argument is just
 * one more name no one listed). A tool that declares no whitelist has no
 * low-risk argument at all.
 */
export function riskyArguments(lowRisk: LowRiskArguments | undefined, args: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(args).filter((name) => {
    const value = args[name];
    if (value === undefined) return false;
    if (!lowRisk || !Object.hasOwn(lowRisk, name)) return true;
    const allowed = lowRisk[name]!;
    return allowed !== 'any' && !allowed.some((ok) => ok === value);
  });
}
