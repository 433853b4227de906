import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Problem } from '../../shared/problems.js';
import { formatJsonPath, hasErrors } from '../../shared/problemText.js';
import { readRegularText, type FileReadFailure } from '../files/readRegularFile.js';
import { StampRecorder, type FileStamp } from '../files/fileStamps.js';
import { AiConfigFileSchema, PluginManifestSchema, SUPPORTED_MANIFEST_VERSION, type AiConfigFile, type AppManifest, type PluginManifest, type PromptSide } from './manifestSchema.js';
import { checkServerUrl } from '../mcp/config/transports.js';
import { toolNameRoomProblem } from '../naming/toolNameRoom.js';
import { linkLeavingFolder, resolveInsidePlugin } from './pluginPaths.js';
import { parseByExtension, parseJsonText } from '../problems/textFiles.js';
import { findUnknownKeys } from '../problems/unknownKeys.js';
import { zodIssuesToProblems } from '../problems/zodProblems.js';

export const MANIFEST_FILE = 'plugin.json';
export const MAX_MANIFEST_BYTES = 256 * 1024;
export const MAX_PROMPT_BYTES = 128 * 1024;
export const MAX_AI_CONFIG_BYTES = 256 * 1024;
/** An unknown key's hint points the author to docs/plugins/manifest.md. */
const MANIFEST_REFERENCE = { reference: 'the manifest reference (docs/plugins/manifest.md)' };

export interface PromptText {
  text: string;
  /** The file it came from; absent for inline `{content}`. */
  file?: string;
}

export interface LoadedPrompt {
  title?: string;
  zh?: PromptText;
  en?: PromptText;
}

/** An app whose every referenced file exists inside the plugin folder. */
export interface ValidatedApp {
  manifest: AppManifest;
  /** The module page; absent for an app whose page is an MCP App (`mcpApp`). */
  entryPath?: string;
  compactPath?: string;
  iconPath?: string;
  mcpEntryPath?: string;
  prompt?: LoadedPrompt;
  /** The parsed `ai.config` file, when the app names one. */
  aiConfig?: AiConfigFile;
}

export interface ValidatedPlugin {
  dir: string;
  manifestFile: string;
  /** Present when the manifest passed the schema; a plugin with errors is shown but never loaded. */
  manifest?: PluginManifest;
  /** The `id`, `name` and `version` as written, so even an invalid plugin is listed by its id. */
  declared: { id?: string; name?: string; version?: string };
  apps: ValidatedApp[];
  backendEntryPath?: string;
  problems: Problem[];
  valid: boolean;
  /** Every file this validation looked at, so a rescan can tell by stat alone whether to redo it. */
  stamps: FileStamp[];
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Validates one plugin folder: the manifest, every path it names, and the files those paths hold. */
export function validatePluginFolder(dir: string): ValidatedPlugin {
  const stamps = new StampRecorder();
  const manifestFile = path.join(dir, MANIFEST_FILE);
  const problems: Problem[] = [];
  const declared: ValidatedPlugin['declared'] = {};
  const finish = (extra: Partial<ValidatedPlugin> = {}): ValidatedPlugin => ({
    dir,
    manifestFile,
    apps: [],
    declared,
    problems,
    valid: !hasErrors(problems),
    stamps: stamps.list(),
    ...extra,
  });
  const error = (code: string, jsonPath: string, message: string, hint?: string, file = manifestFile) => problems.push({ severity: 'error', code, file, path: jsonPath, message, hint });

  /** A file the plugin names could not be read as a regular file within its cap: one problem, at the path that names it. */
  const unreadable = (failure: FileReadFailure, jsonPath: string, tooLarge: { code: string; what: string; limit: number; hint: string }) => {
    if (failure.code === 'FILE_TOO_LARGE') error(tooLarge.code, jsonPath, `${tooLarge.what} is ${kib(failure.size!)}; the limit is ${kib(tooLarge.limit)}`, tooLarge.hint);
    else error(failure.code, jsonPath, failure.message, failure.hint);
  };

  // Stamped first (a stat never blocks); read only as a regular file: a FIFO here would hang the scan.
  if (!stamps.record(manifestFile)) {
    error('MANIFEST_MISSING', '', `no ${MANIFEST_FILE} in ${dir}`, `add a ${MANIFEST_FILE} (run "chatos init ${dir}" for a working example)`);
    return finish();
  }
  // A manifest living elsewhere could be rewritten there while the folder, and its trust, stay the same.
  const elsewhere = linkLeavingFolder(dir, manifestFile);
  if (elsewhere !== undefined) {
    error('MANIFEST_LINK_ESCAPES', '', `${MANIFEST_FILE} is a link to ${elsewhere}, outside the plugin folder`, `copy that file into the plugin folder in place of the link`);
    return finish();
  }
  const manifestText = readRegularText(manifestFile, { maxBytes: MAX_MANIFEST_BYTES });
  if (!manifestText.ok) {
    unreadable(manifestText, '', { code: 'MANIFEST_TOO_LARGE', what: MANIFEST_FILE, limit: MAX_MANIFEST_BYTES, hint: 'move long texts (prompts, descriptions) into files the manifest points at' });
    return finish();
  }
  const parsed = parseJsonText(manifestText.text, manifestFile);
  if (!parsed.ok) {
    problems.push(parsed.problem);
    return finish();
  }
  const raw = parsed.value;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    error(
      'MANIFEST_NOT_OBJECT',
      '',
      `${MANIFEST_FILE} must hold a JSON object`,
      'start from { "manifestVersion": 1, "id": "…", "name": "…", "version": "1.0.0", "apps": [{ "id": "main", "name": "…", "entry": "index.mjs" }] }',
    );
    return finish();
  }
  const fields = raw as Record<string, unknown>;
  for (const key of ['id', 'name', 'version'] as const) if (typeof fields[key] === 'string') declared[key] = fields[key] as string;
  const declaredVersion = fields.manifestVersion;
  if (declaredVersion !== undefined && declaredVersion !== SUPPORTED_MANIFEST_VERSION) {
    error(
      'MANIFEST_VERSION_UNSUPPORTED',
      'manifestVersion',
      `manifestVersion ${JSON.stringify(declaredVersion)} is not supported; this host supports manifestVersion ${SUPPORTED_MANIFEST_VERSION}`,
      `set "manifestVersion": ${SUPPORTED_MANIFEST_VERSION}, or update ChatOS if the plugin needs a newer host`,
    );
    return finish();
  }

  problems.push(...findUnknownKeys(PluginManifestSchema, raw, manifestFile, MANIFEST_REFERENCE));
  const result = PluginManifestSchema.safeParse(raw);
  if (!result.success) {
    problems.push(...zodIssuesToProblems(result.error.issues, raw, manifestFile));
    return finish();
  }
  const manifest = result.data;
  const realDir = fs.realpathSync.native(dir);

  /** Checks one manifest path; records its stamp whether or not it exists. */
  const resolve = (relative: string, jsonPath: (string | number)[]): string | undefined => {
    const stat = stamps.record(path.resolve(realDir, relative));
    const resolved = resolveInsidePlugin(realDir, relative, dir, stat);
    if (!resolved.ok) {
      error(resolved.code, formatJsonPath(jsonPath), resolved.message, resolved.hint);
      return undefined;
    }
    return resolved.absolute;
  };

  const seenApps = new Map<string, number>();
  manifest.apps.forEach((app, index) => {
    const first = seenApps.get(app.id);
    if (first !== undefined) {
      error('APP_ID_DUPLICATE', `apps[${index}].id`, `app id "${app.id}" is used twice: apps[${first}].id and apps[${index}].id`, 'give each app in a plugin its own id');
    } else {
      seenApps.set(app.id, index);
    }
  });

  const apps: ValidatedApp[] = [];
  manifest.apps.forEach((app, index) => {
    const at = (...rest: (string | number)[]) => ['apps', index, ...rest];
    // An app without a module entry has an MCP App page (the schema requires one of them).
    const entryPath = typeof app.entry === 'string' ? resolve(app.entry, at('entry')) : app.entry && resolve(app.entry.path, at('entry', 'path'));
    let compactPath: string | undefined;
    if (typeof app.entry === 'object' && app.entry.compact !== undefined) {
      const compact = app.entry.compact;
      compactPath = typeof compact === 'string' ? resolve(compact, at('entry', 'compact')) : resolve(compact.path, at('entry', 'compact', 'path'));
    }
    const iconPath = app.icon === undefined ? undefined : resolve(app.icon, at('icon'));
    const ai = app.ai;
    let mcpEntryPath: string | undefined;
    if (ai?.mcp?.entry !== undefined) mcpEntryPath = resolve(ai.mcp.entry, at('ai', 'mcp', 'entry'));
    if (ai?.mcp?.url !== undefined) checkUrl(ai.mcp.url, formatJsonPath(at('ai', 'mcp', 'url')), error);
    if (ai?.mcp) {
      const room = toolNameRoomProblem(manifest.id, app.id, manifestFile, formatJsonPath(at('id')));
      if (room) problems.push(room);
    }
    if (ai?.mcp && /\s/.test(ai.mcp.command)) {
      problems.push({
        severity: 'warning',
        code: 'COMMAND_HAS_SPACES',
        file: manifestFile,
        path: formatJsonPath(at('ai', 'mcp', 'command')),
        message: `command "${ai.mcp.command}" contains spaces; servers are started without a shell, so this is one program name`,
        hint: 'put only the program in "command" and its arguments in "args"',
      });
    }
    if (ai?.mcp && Object.hasOwn(ai.mcp.callMeta, 'chatos')) {
      // The host writes _meta.chatos itself and replaces it whole, so these keys would never reach the server: refused, not dropped unseen.
      error(
        'CALLMETA_CHATOS_RESERVED',
        formatJsonPath(at('ai', 'mcp', 'callMeta', 'chatos')),
        "callMeta.chatos is the host's own: every tool call's _meta.chatos is what ChatOS fills in (chatos.uiApp, and chatos.caller for built-in apps), so keys written here would never reach your server",
        'move these keys under a key of your own, e.g. "callMeta": { "myApp": { … } }, and read them as extra._meta.myApp',
      );
    }
    const prompt = ai?.mcpPrompt === undefined ? undefined : loadPrompt(ai.mcpPrompt, at('ai', 'mcpPrompt'));
    const aiConfig = ai?.config === undefined ? undefined : loadAiConfig(ai.config, at('ai', 'config'));
    if (entryPath || app.entry === undefined) apps.push({ manifest: app, entryPath, compactPath, iconPath, mcpEntryPath, prompt, aiConfig });
  });

  const backendEntryPath = manifest.backend ? resolve(manifest.backend.entry, ['backend', 'entry']) : undefined;
  return finish({ manifest, apps, backendEntryPath });

  function readPromptSide(side: PromptSide, jsonPath: (string | number)[]): PromptText | undefined {
    if (typeof side === 'object' && 'content' in side) {
      if (Buffer.byteLength(side.content) > MAX_PROMPT_BYTES) {
        error('PROMPT_TOO_LARGE', formatJsonPath([...jsonPath, 'content']), `inline prompt is ${kib(Buffer.byteLength(side.content))}; the limit is ${kib(MAX_PROMPT_BYTES)}`, 'shorten the prompt');
        return undefined;
      }
      return { text: side.content };
    }
    const relative = typeof side === 'string' ? side : side.path;
    const pathAt = typeof side === 'string' ? jsonPath : [...jsonPath, 'path'];
    const file = resolve(relative, pathAt);
    if (!file) return undefined;
    const read = readRegularText(file, { maxBytes: MAX_PROMPT_BYTES });
    if (!read.ok) {
      unreadable(read, formatJsonPath(pathAt), { code: 'PROMPT_TOO_LARGE', what: `prompt file "${relative}"`, limit: MAX_PROMPT_BYTES, hint: 'shorten the prompt' });
      return undefined;
    }
    return { text: read.text, file };
  }

  function loadPrompt(spec: NonNullable<AppManifest['ai']>['mcpPrompt'] & {}, jsonPath: (string | number)[]): LoadedPrompt {
    // A bare string is the zh prompt (docs/plugins/prompts.md).
    if (typeof spec === 'string') return { zh: readPromptSide(spec, jsonPath) };
    return {
      title: spec.title,
      zh: spec.zh === undefined ? undefined : readPromptSide(spec.zh, [...jsonPath, 'zh']),
      en: spec.en === undefined ? undefined : readPromptSide(spec.en, [...jsonPath, 'en']),
    };
  }

  function loadAiConfig(relative: string, jsonPath: (string | number)[]): AiConfigFile | undefined {
    const file = resolve(relative, jsonPath);
    if (!file) return undefined;
    const read = readRegularText(file, { maxBytes: MAX_AI_CONFIG_BYTES });
    if (!read.ok) {
      unreadable(read, formatJsonPath(jsonPath), { code: 'AI_CONFIG_TOO_LARGE', what: `ai.config file "${relative}"`, limit: MAX_AI_CONFIG_BYTES, hint: 'keep only mcpServers and prompts in it' });
      return undefined;
    }
    const parsedConfig = parseByExtension(read.text, file);
    if (!parsedConfig.ok) {
      problems.push(parsedConfig.problem);
      return undefined;
    }
    problems.push(...findUnknownKeys(AiConfigFileSchema, parsedConfig.value, file, MANIFEST_REFERENCE));
    const checked = AiConfigFileSchema.safeParse(parsedConfig.value);
    if (!checked.success) {
      problems.push(...zodIssuesToProblems(checked.error.issues, parsedConfig.value, file));
      return undefined;
    }
    return checked.data;
  }
}

/** The same rule the runtime connects by (src/core/mcp/config/transports.ts): a url that validates can be connected to. */
function checkUrl(url: string, jsonPath: string, error: (code: string, jsonPath: string, message: string, hint?: string) => void): void {
  const checked = checkServerUrl(url);
  if (!checked.ok) error(checked.code, jsonPath, checked.message, checked.hint);
}
