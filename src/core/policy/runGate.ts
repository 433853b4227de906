import * as path from 'node:path';
import type { PluginRecord } from '../../shared/appContribution.js';
import type { RegistrySource } from '../../shared/registry.js';
import type { TrustState } from '../../shared/trust.js';

/**
 * The one answer to "may this plugin's code start now?" (docs/rules/trust.md#the-run-gate).
 * Every process the host starts for a plugin (server, reload
 * probe, backend) asks it at the moment of spawning; pages, backend calls,
 * tool calls and agents' prompt text ask it too. A refusal carries a code
 * the faces branch on, a message naming the plugin, and the fix.
 */
export type RunGateCode = 'PLUGIN_MISSING' | 'PLUGIN_NOT_SCANNED' | 'PLUGIN_INVALID' | 'PLUGIN_BLOCKED' | 'PLUGIN_UNTRUSTED' | 'PLUGIN_CHANGED';

export type RunGateRefusal = { ok: false; code: RunGateCode; message: string; fix: string };
export type RunGateAnswer = { ok: true } | RunGateRefusal;

export const RUN_ALLOWED: RunGateAnswer = Object.freeze({ ok: true });

/** Which part of the plugin is asking, for the message: "so its server does not run". */
export type RunPart = 'server' | 'backend' | 'pages' | 'prompt' | 'plugin';

/** A plugin by its folder (servers, pages and prompts know theirs) or, failing that, its id (the loaded copy). */
export interface RunTarget {
  pluginId: string;
  pluginDir?: string;
}

/** What the gate reads: the scanned plugins (by folder and by id) and their trust. */
export interface RunGateDeps {
  pluginAt(dir: string): PluginRecord | undefined;
  /** The loaded plugin with this id, else any folder declaring it. */
  pluginById(pluginId: string): PluginRecord | undefined;
  /** The plugin roots this process scans now (built-in, user, remembered, this run's --plugins; a development link is its plugin folder). */
  pluginRoots(): readonly string[];
  trust: {
    stateOf(plugin: PluginRecord): TrustState;
    /** stateOf's runnable answer, reused for up to a second (the tool call path). */
    isRunnableNow(plugin: PluginRecord): boolean;
  };
}

const CONSEQUENCE: Record<RunPart, string> = {
  server: 'its server does not run',
  backend: 'its backend does not run',
  pages: 'its pages do not run',
  prompt: 'its prompt text is not given to agents',
  plugin: 'nothing of it runs',
};

/** One line for faces that show a single string (a backend call's outcome, a thrown error). */
export const refusalText = (refusal: RunGateRefusal) => `${refusal.message}; ${refusal.fix}`;

export class RunGate {
  constructor(private readonly deps: RunGateDeps) {}

  /**
   * The full answer, reading the plugin's folder now (file hashes are reused
   * by stat stamp): asked right before a process is spawned, and wherever a
   * stale answer must not count.
   */
  check(target: RunTarget, part: RunPart): RunGateAnswer {
    const found = this.plugin(target, part);
    if (!found.ok) return found;
    return this.answer(found.plugin, this.deps.trust.stateOf(found.plugin), part);
  }

  /**
   * The per-call answer (the gateway's hot path): O(1), reusing the trust
   * answer for at most a second, until the trust records change or the next
   * rescan. Only a refusal reads the folder again, to say why (and a
   * folder found trusted again by then is let through).
   */
  checkCached(target: RunTarget, part: RunPart): RunGateAnswer {
    const found = this.plugin(target, part);
    if (!found.ok) return found;
    if (this.deps.trust.isRunnableNow(found.plugin)) return RUN_ALLOWED;
    return this.answer(found.plugin, this.deps.trust.stateOf(found.plugin), part);
  }

  private plugin(target: RunTarget, part: RunPart): { ok: true; plugin: PluginRecord } | RunGateRefusal {
    const { pluginId, pluginDir } = target;
    const plugin = pluginDir !== undefined ? this.deps.pluginAt(pluginDir) : this.deps.pluginById(pluginId);
    if (!plugin && pluginDir !== undefined && !this.deps.pluginRoots().some((root) => root === path.dirname(pluginDir) || root === pluginDir)) {
      // Registered by a process that scans that root: this one knows nothing of it, so it cannot say it is gone (docs/reference/data-home.md#what-each-process-may-change).
      const root = path.dirname(pluginDir);
      return refuse(
        'PLUGIN_NOT_SCANNED',
        `plugin ${pluginId} is in ${root}, which is not among the plugin roots this process scans, so ${CONSEQUENCE[part]} here`,
        `remember that root for every process: chatos roots add ${root} (or scan it for this run only: --plugins ${root})`,
      );
    }
    if (!plugin) {
      return refuse(
        'PLUGIN_MISSING',
        `plugin ${pluginId} is not installed${pluginDir ? ` at ${pluginDir}` : ''}, so ${CONSEQUENCE[part]}`,
        'install it again (chatos install DIR), or see what is installed: chatos apps',
      );
    }
    if (plugin.status !== 'loaded') {
      return refuse('PLUGIN_INVALID', `plugin ${pluginId} is ${plugin.status}, so ${CONSEQUENCE[part]}`, `fix its problems first: chatos validate ${plugin.dir}`);
    }
    return { ok: true, plugin };
  }

  private answer(plugin: PluginRecord, state: TrustState, part: RunPart): RunGateAnswer {
    const id = plugin.id ?? plugin.dir;
    switch (state.state) {
      case 'builtin':
      case 'trusted':
        return RUN_ALLOWED;
      case 'blocked': {
        const first = state.problems[0];
        return refuse(
          'PLUGIN_BLOCKED',
          `plugin ${id} cannot be trusted (${first?.message ?? 'its folder cannot be pinned'}), so ${CONSEQUENCE[part]}`,
          first?.hint ?? 'fix its problems (see: chatos apps)',
        );
      }
      case 'untrusted':
        return refuse('PLUGIN_UNTRUSTED', `plugin ${id} is not trusted, so ${CONSEQUENCE[part]}`, `review what it runs and trust it: chatos trust ${id} (or Trust on the Apps page)`);
      case 'changed':
        return refuse(
          'PLUGIN_CHANGED',
          `plugin ${id} is changed since you trusted it, so ${CONSEQUENCE[part]}`,
          `review what changed and trust it again: chatos trust ${id} (or Trust on the Apps page)`,
        );
    }
  }
}

/**
 * Registry rows whose plugin may not run now, with the gate's refusal: the
 * registry's own listings (`chatos registry`, the Registry page) still show
 * them, marked; agents and the gateway offer them to no one. A row marked
 * missing is left out: it is offered to no one anyway, and its mark says why.
 */
export function notRunnableRows(rows: readonly { id: string; source: RegistrySource; missing?: unknown }[], gate: Pick<RunGate, 'checkCached'>, part: RunPart): Map<string, RunGateRefusal> {
  const refused = new Map<string, RunGateRefusal>();
  for (const row of rows) {
    if (row.source.kind !== 'plugin' || row.missing) continue;
    const answer = gate.checkCached(row.source, part);
    if (!answer.ok) refused.set(row.id, answer);
  }
  return refused;
}

function refuse(code: RunGateCode, message: string, fix: string): RunGateRefusal {
  return { ok: false, code, message, fix };
}
