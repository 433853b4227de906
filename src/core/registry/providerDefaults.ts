import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { z } from 'zod';
import type { Problem } from '../../shared/problems.js';
import { ServerEnvNameSchema } from '../../shared/mcp.js';
import type { McpServerConfig, PromptConfig } from '../../shared/registry.js';
import { expandVariables } from '../naming/callMeta.js';
import { formatCmdUrl } from '../naming/cmdUrl.js';
import { readProblem, readRegularText } from '../files/readRegularFile.js';
import { parseYamlText } from '../problems/textFiles.js';
import { zodIssuesToProblems } from '../problems/zodProblems.js';

const DefaultServerSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    tags: z.array(z.string()).default([]),
    allowMain: z.boolean().default(false),
    allowSub: z.boolean().default(true),
    enabled: z.boolean().default(true),
    /** An npm package installed with ChatOS whose bin is started with node. */
    package: z.string().optional(),
    bin: z.string().optional(),
    command: z.string().optional(),
    url: z.string().optional(),
    args: z.array(z.string()).default([]),
    env: z.record(ServerEnvNameSchema, z.string()).default({}),
  })
  .refine((s) => [s.package, s.command, s.url].filter((v) => v !== undefined).length === 1, {
    error: 'needs exactly one of "package", "command" or "url"',
  });

const DefaultServersFileSchema = z.object({ servers: z.array(DefaultServerSchema).default([]) });

const DefaultPromptsFileSchema = z.object({
  prompts: z
    .array(
      z
        .object({ name: z.string().min(1), title: z.string().optional(), lang: z.enum(['zh', 'en']).optional(), file: z.string().optional(), content: z.string().optional() })
        .refine((p) => (p.file === undefined) !== (p.content === undefined), { error: 'needs exactly one of "file" or "content"' }),
    )
    .default([]),
});

export interface ProviderDefaults {
  appId: string;
  serversFile: string;
  promptsFile: string;
  servers: McpServerConfig[];
  prompts: PromptConfig[];
  problems: Problem[];
}

/** Provider apps that ship bundled defaults: the folders of `defaults/providers/`. */
export function listDefaultProviders(defaultsDir: string): string[] {
  try {
    return fs
      .readdirSync(path.join(defaultsDir, 'providers'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * Inside an asar archive a file can be read but not run by a plain `node`;
 * electron-builder unpacks such packages next to it.
 */
const unpacked = (file: string) => file.replace(/\.asar([\\/])/, '.asar.unpacked$1');

/** The absolute script of an npm package installed with ChatOS (its `bin`), runnable by a plain node. */
export function resolvePackageBin(appRoot: string, pkg: string, bin?: string): string {
  const require = createRequire(path.join(appRoot, 'package.json'));
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { bin?: string | Record<string, string> };
  const bins = typeof manifest.bin === 'string' ? { [pkg]: manifest.bin } : (manifest.bin ?? {});
  const relative = bin ? bins[bin] : Object.values(bins)[0];
  if (!relative) throw new Error(`package ${pkg} has no bin${bin ? ` named "${bin}"` : ''}`);
  return unpacked(path.resolve(path.dirname(manifestPath), relative));
}

/** A defaults file (a list of servers or prompts, a prompt's text) is far smaller. */
const MAX_DEFAULTS_FILE_BYTES = 256 * 1024;

/** Reads `defaults/providers/<appId>/{mcpServers,prompts}.yaml`, resolving packages to absolute scripts. */
export function loadProviderDefaults(defaultsDir: string, appId: string, appRoot: string, vars: Record<string, string>): ProviderDefaults {
  const dir = path.join(defaultsDir, 'providers', appId);
  const serversFile = path.join(dir, 'mcpServers.yaml');
  const promptsFile = path.join(dir, 'prompts.yaml');
  const result: ProviderDefaults = { appId, serversFile, promptsFile, servers: [], prompts: [], problems: [] };

  const read = <T>(file: string, schema: z.ZodType<T>): T | undefined => {
    const read = readRegularText(file, { maxBytes: MAX_DEFAULTS_FILE_BYTES });
    if (!read.ok) {
      if (read.code !== 'FILE_NOT_FOUND') result.problems.push(readProblem(read, file));
      return undefined;
    }
    const parsed = parseYamlText(read.text, file);
    if (!parsed.ok) {
      result.problems.push(parsed.problem);
      return undefined;
    }
    const checked = schema.safeParse(parsed.value);
    if (!checked.success) {
      result.problems.push(...zodIssuesToProblems(checked.error.issues, parsed.value, file));
      return undefined;
    }
    return checked.data;
  };

  const servers = read(serversFile, DefaultServersFileSchema);
  servers?.servers.forEach((server, index) => {
    const args = expandVariables(server.args, vars) as string[];
    let url: string;
    try {
      if (server.package) url = formatCmdUrl('node', [resolvePackageBin(appRoot, server.package, server.bin), ...args]);
      else if (server.command) url = formatCmdUrl(server.command, args);
      else url = server.url!;
    } catch (error) {
      result.problems.push({
        severity: 'error',
        code: 'DEFAULT_SERVER_UNRESOLVED',
        file: serversFile,
        path: `servers[${index}].package`,
        message: `cannot resolve ${server.package}: ${(error as Error).message}`,
        hint: 'reinstall ChatOS (npm ci) so its bundled servers are present',
      });
      return;
    }
    result.servers.push({
      name: server.name,
      url,
      env: expandVariables(server.env, vars) as Record<string, string>,
      description: server.description,
      tags: server.tags,
      allowMain: server.allowMain,
      allowSub: server.allowSub,
      enabled: server.enabled,
    });
  });

  const prompts = read(promptsFile, DefaultPromptsFileSchema);
  prompts?.prompts.forEach((prompt, index) => {
    let content = prompt.content;
    if (prompt.file !== undefined) {
      const file = path.resolve(dir, prompt.file);
      const read = readRegularText(file, { maxBytes: MAX_DEFAULTS_FILE_BYTES });
      if (!read.ok) {
        const jsonPath = `prompts[${index}].file`;
        if (read.code === 'FILE_NOT_FOUND')
          result.problems.push({
            severity: 'error',
            code: 'DEFAULT_PROMPT_MISSING',
            file: promptsFile,
            path: jsonPath,
            message: `prompt file ${file} is missing`,
            hint: 'restore the file or remove the entry',
          });
        else result.problems.push(readProblem(read, promptsFile, jsonPath));
        return;
      }
      content = read.text;
    }
    result.prompts.push({ name: prompt.name, title: prompt.title, lang: prompt.lang, content: content! });
  });
  return result;
}
