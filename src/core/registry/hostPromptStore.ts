import { HostPromptInputSchema, type HostPromptView } from '../../shared/hostPrompts.js';
import type { HostPrompt, RegistrySource } from '../../shared/registry.js';
import { HOST_APP_ID } from '../dataHome.js';
import { suggestClosest } from '../naming/suggest.js';
import type { RecordsStore } from '../store/recordsStore.js';
import type { RegistryCenter } from './registryCenter.js';
import { HostPrompts, registryId } from './registryTables.js';
import { HostPromptError } from './hostPromptError.js';

const EN = '__en';

/** Rows a plugin put there (copies: docs/rules/names-and-exposure.md#where-the-contribution-lives): the plugin's, not the user's to edit. */
const isPluginCopy = (source: RegistrySource | undefined) => source?.kind === 'plugin';

/**
 * The host's own prompts (the admin DB's `prompts` table, which nothing
 * wrote before): list, add, edit, remove, grant. Each prompt is the pair
 * `<name>` (zh) and `<name>__en` (en); a text left empty has no row. After
 * a change the registry is synced at once (`syncHostOwn`), so agents and
 * grants see it; a removed prompt's registrations go with their grants
 * (the user removed it: it is not "missing").
 */
export class HostPromptStore {
  constructor(
    private readonly store: RecordsStore,
    private readonly registry: RegistryCenter,
    private readonly syncHostOwn: () => void,
  ) {}

  list(): HostPromptView[] {
    this.store.refresh();
    const byName = new Map<string, { title?: string; zh?: string; en?: string }>();
    for (const { payload } of this.store.list(HostPrompts)) {
      if (isPluginCopy(payload.source)) continue;
      const en = payload.lang === 'en' || (payload.lang === undefined && payload.name.endsWith(EN));
      const base = payload.name.endsWith(EN) ? payload.name.slice(0, -EN.length) : payload.name;
      const prompt = byName.get(base) ?? {};
      prompt[en ? 'en' : 'zh'] = payload.content;
      if (payload.title && (!prompt.title || !en)) prompt.title = payload.title;
      byName.set(base, prompt);
    }
    const grants = this.registry.listGrants('prompt');
    return [...byName]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, prompt]) => {
        const ids = [...(prompt.zh !== undefined ? [registryId(HOST_APP_ID, name)] : []), ...(prompt.en !== undefined ? [registryId(HOST_APP_ID, `${name}${EN}`)] : [])];
        const grantedTo = [...new Set(grants.filter((g) => ids.includes(g.targetId)).map((g) => g.appId))].sort();
        return { name, ...prompt, ids, grantedTo };
      });
  }

  get(name: string): HostPromptView {
    const list = this.list();
    const found = list.find((p) => p.name === name);
    if (!found) {
      const close = suggestClosest(
        name,
        list.map((p) => p.name),
      );
      throw new HostPromptError(
        'PROMPT_NOT_FOUND',
        `no prompt named "${name}"${close.length ? `; did you mean ${close.map((c) => `"${c}"`).join(' or ')}?` : ''}`,
        'see the Prompts page (or chatos prompts list)',
      );
    }
    return found;
  }

  /** Adds (`create`) or replaces a prompt's title and texts. */
  save(input: unknown, options: { create: boolean }): HostPromptView {
    const parsed = HostPromptInputSchema.safeParse(input);
    if (!parsed.success) {
      const fields = parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.') || 'name', message: i.message }));
      throw new HostPromptError('PROMPT_INVALID', `${fields[0]!.path}: ${fields[0]!.message}`, undefined, fields);
    }
    const { name, title, zh, en } = parsed.data;
    const exists = this.list().some((p) => p.name === name);
    if (options.create && exists) throw new HostPromptError('PROMPT_EXISTS', `a prompt named "${name}" exists`, 'choose another name, or edit that prompt', [{ path: 'name', message: 'is taken' }]);
    if (!options.create && !exists) this.get(name);
    this.checkNameFree(name);
    const rows: [id: string, text: string | undefined, lang: 'zh' | 'en'][] = [
      [name, zh, 'zh'],
      [`${name}${EN}`, en, 'en'],
    ];
    this.store.transaction(() => {
      for (const [id, text, lang] of rows) {
        if (text === undefined || text.trim() === '') this.store.delete(HostPrompts, id);
        else this.store.put<HostPrompt>(HostPrompts, id, { id, name: id, content: text, lang, ...(title ? { title } : {}), source: { kind: 'host' } });
      }
    });
    this.forgetGone(rows.filter(([, text]) => text === undefined || text.trim() === '').map(([id]) => id));
    this.syncHostOwn();
    return this.get(name);
  }

  remove(name: string): { removed: boolean; revokedGrants: number } {
    const prompt = this.get(name);
    this.store.transaction(() => {
      this.store.delete(HostPrompts, name);
      this.store.delete(HostPrompts, `${name}${EN}`);
    });
    const revoked = this.forgetGone([name, `${name}${EN}`]);
    this.syncHostOwn();
    return { removed: prompt.ids.length > 0, revokedGrants: revoked };
  }

  /** Grants (or revokes) every text of the prompt to `appId`, so an agent of that app gets it in either language. */
  setGrant(name: string, appId: string, granted: boolean): HostPromptView {
    const prompt = this.get(name);
    for (const id of prompt.ids) {
      if (granted) this.registry.grantPromptAccess(appId, id);
      else this.registry.revokePromptAccess(appId, id);
    }
    return this.get(name);
  }

  /** Registry ids are shared by servers and prompts: a name a server of the host holds would make a grant ambiguous. */
  private checkNameFree(name: string): void {
    for (const id of [name, `${name}${EN}`]) {
      const row = this.store.get(HostPrompts, id);
      if (row && isPluginCopy(row.payload.source))
        throw new HostPromptError('PROMPT_NAME_TAKEN', `"${id}" is a plugin's prompt in the host's list`, 'choose another name', [{ path: 'name', message: "is a plugin's prompt" }]);
      if (this.registry.getServer(registryId(HOST_APP_ID, id)))
        throw new HostPromptError('PROMPT_NAME_TAKEN', `"${registryId(HOST_APP_ID, id)}" is the id of a server`, 'choose another name, so grants and agents can tell the prompt from the server', [
          { path: 'name', message: "is a server's name" },
        ]);
    }
  }

  /** The registrations of texts the user removed, with their grants (a sync would only mark them missing). */
  private forgetGone(ids: readonly string[]): number {
    const wanted = new Set(ids.map((id) => registryId(HOST_APP_ID, id)));
    return this.registry.removeRegistrations((row, kind) => kind === 'prompt' && row.source.kind === 'host' && wanted.has(row.id)).reduce((n, r) => n + r.revokedGrants.length, 0);
  }
}
