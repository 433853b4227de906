import type { AppContribution, PluginRecord } from '../../shared/appContribution.js';
import type { ContributionCopies } from '../../shared/registry.js';
import type { AppView, PluginView } from '../../shared/hostApi.js';
import type { PageRegistryView } from '../../shared/pageRegistry.js';
import type { ProviderPush } from '../uiApps/providerPush.js';
import type { DroppedGrant, PluginUpdate } from '../../shared/pluginUpdate.js';
import type { Problem } from '../../shared/problems.js';
import type { PluginRootView } from '../../shared/roots.js';
import type { RunPlan, TrustRecord, TrustState } from '../../shared/trust.js';
import type { PluginCatalog } from '../contributions/pluginCatalog.js';
import type { PluginRoot, ScanResult } from '../contributions/pluginScanner.js';
import type { DevLinkView } from '../operations/devLinks.js';
import type { uninstallPlugin } from '../operations/pluginLifecycle.js';
import type { InstallOutcome } from '../operations/pluginUpdate.js';
import type { BundleOutcome } from '../operations/bundleInstall.js';
import type { BundleConfigValues, BundlePreview } from '../../shared/bundles.js';
import type { Installed } from '../plugins/pluginInstaller.js';
import type { RunGate } from '../policy/runGate.js';
import type { PluginBackends } from '../uiApps/pluginBackends.js';

export type { PluginRoot, ScanResult } from '../contributions/pluginScanner.js';
export type { DevLinkView } from '../operations/devLinks.js';
export type { InstallOutcome } from '../operations/pluginUpdate.js';
export type { RunGateCode } from '../policy/runGate.js';
export { refusalText } from '../policy/runGate.js';
export { runPlanLines } from '../trust/runPlanText.js';
export { downloadBundle } from '../operations/bundleDownload.js';
export { bundleArgOf, readBundleToOpen } from '../plugins/bundles/bundleToOpen.js';
export { blockingProblems } from '../trust/pluginTrust.js';
export { PluginIdSchema } from '../plugins/manifestSchema.js';

/** What the scan found (a scan runs on first read). Works before the host starts: `chatos validate` uses it alone. */
export type PluginCatalogView = Pick<PluginCatalog, 'apps' | 'plugins' | 'problems' | 'getAiContribution' | 'findByServerName' | 'validateFolder' | 'rescan'>;

/**
 * Plugins and their apps: the catalog, the roots and development links,
 * trust and the run gate, the lifecycle (trust, untrust, install, update,
 * uninstall) and the plugin backends. Every face runs these the same way.
 */
export interface PluginsFacade {
  readonly catalog: PluginCatalogView;
  /** Built-in, development links, user, remembered (`chatos roots add`) and this process's extra roots, as they are now. */
  roots(): readonly PluginRoot[];
  /** May this plugin's code start now? Asked by every face and at every spawn. */
  readonly runGate: Pick<RunGate, 'check' | 'checkCached'>;
  trustState(plugin: PluginRecord): TrustState;
  /** What trusting the plugin would let run (its servers, backend, and what they reach outside its folder). */
  runPlan(plugin: PluginRecord): RunPlan;
  /** A plugin as the Apps page shows it: its trust, run plan, whether it may run now, its problems with trust's. */
  view(plugin: PluginRecord): PluginView;
  /** Each app of a scan (default the catalog's) with its plugin and what is wrong with its own server now. */
  appViews(scan?: ScanResult): AppView[];
  /** The problems of each app's own server (its command is not there, its last start failed), beside the scan's. */
  appServerProblems(scan: ScanResult): Problem[];
  /** What a UI app's page may see of the registry: its provider's servers and prompts, and their apps. */
  pageRegistry(app: AppContribution): PageRegistryView;
  /** A provider app's `registerMcpServer` / `registerPrompt` through the host API, checked in the core (uiApps/providerPush.ts); grants nothing. */
  pushRegistration(app: AppContribution, push: ProviderPush): { id: string };

  /** Scans the plugin roots (re-reading only what changed) and syncs the registry with the result. */
  rescan(): ScanResult;
  /** Rescans, and reloads the servers when plugins came, went or changed. */
  rescanAndReload(): Promise<ScanResult>;
  /** Trusts the plugin's current content (`plan`: what the user was shown). */
  trust(pluginId: string, options?: { plan?: RunPlan }): { plugin: PluginRecord; record?: TrustRecord };
  /** Takes trust back and ends what the plugin runs now. */
  untrust(pluginId: string): Promise<{ changed: boolean }>;
  /** Copies a plugin into the user root (`update`: over the installed copy). */
  install(source: string, options?: { update?: boolean }): Promise<Installed & { updated: boolean }>;
  /** Installs, or updates the installed copy of its id in place once `confirm` (shown what changes) says yes. */
  installOrUpdate(source: string, confirm: (update: PluginUpdate) => boolean | Promise<boolean>): Promise<InstallOutcome>;
  /** The update installing `source` would make; none for a new install. Nothing is placed. */
  previewInstall(source: string): Promise<{ pluginId: string; update?: PluginUpdate }>;
  /** What installing an MCP Bundle (`.mcpb`) shows: its maker, signature, command line, tools and settings. Nothing is placed. */
  previewBundle(file: string): Promise<BundlePreview>;
  /** Installs an MCP Bundle as a plugin with these settings (sensitive ones to the key store); over an installed copy once `confirm` says yes. */
  installBundle(file: string, values: BundleConfigValues, confirm: (update: PluginUpdate) => boolean | Promise<boolean>, options?: { keepSecrets?: boolean }): Promise<BundleOutcome>;
  /** The user copy uninstalling `pluginId` removes, and the grants other apps lose with it. */
  previewUninstall(pluginId: string): { dir: string; grants: DroppedGrant[] };
  /** Removes the user copy with its registrations and their grants (`purge`: its data too), and ends what it ran. */
  uninstall(pluginId: string, purge: boolean): Promise<ReturnType<typeof uninstallPlugin>>;

  /** Plugin servers and prompts copied into the host's own lists, and whether the data home's `syncAiContributes` is on (docs/rules/names-and-exposure.md#where-the-contribution-lives). */
  contributionCopies(): ContributionCopies;
  /** Switches the copies on or off for every process of the data home, and makes (or drops) them now. */
  setSyncAiContributes(on: boolean): ContributionCopies;

  /** Every plugin root with whether it exists, and the problems of the remembered-roots file. */
  listRoots(): { roots: PluginRootView[]; problems: Problem[] };
  /** Remembers a root for every process and scans it now. */
  addRoot(dir: string): Promise<{ dir: string; added: boolean; plugins: string[] }>;
  /** Forgets a remembered root; its plugins' registrations are marked missing. */
  removeRoot(dir: string): Promise<{ dir: string; missing: string[] }>;
  /** Plugin folders linked in place for development (`chatos dev`), and the problems of their list. */
  devLinks(): { links: DevLinkView[]; problems: Problem[] };
  /** What linking `dir` would run, without linking it. */
  previewDevLink(dir: string): { dir: string; pluginId?: string; runPlan?: RunPlan; problems: Problem[] };
  /** Links a plugin folder in place and trusts it as a link. */
  linkDev(dir: string): Promise<{ plugin: PluginRecord & { id: string }; record: TrustRecord; added: boolean }>;
  /** Unlinks a folder (by path or plugin id): what runs of it ends, its trust and registrations go; the folder stays. */
  unlinkDev(target: string): Promise<{ dir: string; pluginId?: string; removed: string[] }>;

  /** Plugin backends, each in its own Node process, started on first call; only for trusted plugins. */
  readonly backends: Pick<PluginBackends, 'invoke' | 'running'>;
}
