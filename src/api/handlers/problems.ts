import type { SourcedProblem } from '../../shared/hostApi.js';
import type { Host } from '../../core/host.js';
import { troubleProblem } from '../../core/facades/mcp.js';
import type { HandlerContext, Handlers } from './types.js';

/** Every current problem, tagged with where it comes from: manifests, the registry, mcp.yaml and definitions, running servers. */
export function currentProblems(host: Host): SourcedProblem[] {
  const servers = host.mcp.servers.instanceProblems();
  // A server that cannot start (its command is not there, or its last start failed) is an error until it starts.
  const broken = host.mcp.definitions().flatMap((definition) => {
    const trouble = host.mcp.trouble(definition.id);
    return trouble ? [{ ...troubleProblem(definition.id, trouble), source: 'servers' as const }] : [];
  });
  return [
    ...host.plugins.catalog.problems.map((p) => ({ ...p, source: 'plugins' as const })),
    ...host.registry.problems.map((p) => ({ ...p, source: 'registry' as const })),
    ...host.mcp.problems.map((p) => ({ ...p, source: 'mcp' as const })),
    ...servers,
    ...broken,
    ...host.chat.problems().map((p) => ({ ...p, source: 'chat' as const })),
  ];
}

export function infoHandlers({ host, face, version, locale }: HandlerContext): Handlers<'host.info' | 'problems.list' | 'audit.list'> {
  return {
    'host.info': () => ({ version, home: host.setup.home.root, face, locale }),
    'problems.list': () => ({ problems: currentProblems(host) }),
    'audit.list': ({ limit, appId, agentId, tool, decision, outcome }) => ({ records: host.audit.query({ limit, appId, agentId, tool, decision, outcome }) }),
  };
}
