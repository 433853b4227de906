/**
 * docs/rules/confirmation.md#permission-levels: a `write` tool runs without asking only for "low-risk writes
 * of whitelisted fields". Each write tool declares its whitelist with the
 * tool (`SettingsTool.lowRisk`): the arguments a call may give and still run
 * at once, each for any value or for the listed values only (switching a
 * tool off narrows what models may do; switching it on widens it). A call
 * that gives anything else (an agent's apps, servers or knowledge bases,
 * another agent's name or description, a base's embedding model, name or
 * description, a tool switched back on, an argument no one listed) asks the
 * user first, as a `confirm` tool does: the decision is
 * made per call, from its arguments, so a prompt-injected model cannot
 * widen what it may use through a tool that asks no one.
 */

/**
 * How much of one argument a call may give without asking: any value; only
 * these values (compared with `===`); or `'own-agent'`, any value when the
 * call changes the calling agent itself (its `id` argument is the caller's
 * agent id). An agent's name and description are read by other agents'
 * models, so changing another agent's asks (docs/rules/settings-server.md#the-server).
 */
export type LowRiskArgument = 'any' | 'own-agent' | readonly (string | number | boolean | null)[];

/** A write tool's whitelist: argument name → what of it is low-risk. Names not listed are never low-risk. */
export type LowRiskArguments = Readonly<Record<string, LowRiskArgument>>;

/**
 * The arguments of this call that are not low-risk, in the order given:
 * empty when the call may run without asking. Names come from the model, so
 * the whitelist is read with `Object.hasOwn` (a `__proto__` argument is just
 * one more name no one listed). A tool that declares no whitelist has no
 * low-risk argument at all. `callerAgentId`: the agent making the call,
 * when an agent makes it.
 */
export function riskyArguments(lowRisk: LowRiskArguments | undefined, args: Readonly<Record<string, unknown>>, callerAgentId?: string): string[] {
  return Object.keys(args).filter((name) => {
    const value = args[name];
    if (value === undefined) return false;
    if (!lowRisk || !Object.hasOwn(lowRisk, name)) return true;
    const allowed = lowRisk[name]!;
    if (allowed === 'any') return false;
    if (allowed === 'own-agent') return callerAgentId === undefined || args.id !== callerAgentId;
    return !allowed.some((ok) => ok === value);
  });
}
