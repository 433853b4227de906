import * as path from 'node:path';
import type { McpServerInputParsed, McpTemplate } from '../../../shared/mcpAdmin.js';
import { ownValue } from '../../../shared/ownKeys.js';
import { resolvePackageBin } from '../../registry/providerDefaults.js';
import { McpAdminError } from './mcpAdminError.js';

/**
 * One-click servers (docs/rules/settings-server.md#categories, the built-in tab). The
 * filesystem and memory servers ship with ChatOS (its own npm
 * dependencies, started by path with node, nothing downloaded); the others
 * are published MCP servers started with npx (npm) or uvx (PyPI), which
 * fetch them on first start. Each becomes an ordinary mcp.yaml entry the
 * user can edit or remove.
 */

export interface TemplateContext {
  /** The installed application (its node_modules hold the bundled servers). */
  appRoot: string;
  /** `$CHATOS_HOME/chatos`: where the memory server keeps its file. */
  hostDir: string;
  /** The user's home folder: the default folder to share. */
  homeDir: string;
}

type Params = ReadonlyMap<string, string>;

interface TemplateSpec extends Omit<McpTemplate, 'input' | 'bundled' | 'runner'> {
  runner: McpTemplate['runner'];
  /** For a bundled one: the package whose bin is started with node. */
  pkg?: string;
  build(params: Params, bin: string | undefined): Omit<McpServerInputParsed, 'name' | 'env' | 'headers'> & Partial<Pick<McpServerInputParsed, 'env'>>;
}

const folderParam = (zh: string, en: string, fallback?: string) => ({ key: 'folder', label: { zh, en }, kind: 'folder' as const, required: true, ...(fallback ? { default: fallback } : {}) });
const param = (params: Params, key: string) => params.get(key) ?? '';

type Shown = Pick<TemplateSpec, 'id' | 'title' | 'description'>;

/**
 * A published server that npx (npm) or uvx (PyPI) fetches on first start:
 * its page on that registry, and the command that starts it (`version` pins
 * a tag, `args` follow the package).
 */
function published(
  runner: 'npx' | 'uvx',
  { id, title, description }: Shown,
  pkg: string,
  more: { version?: string; params?: TemplateSpec['params']; args?: (params: Params) => string[] } = {},
): TemplateSpec {
  const homepage = runner === 'npx' ? `https://www.npmjs.com/package/${pkg}` : `https://pypi.org/project/${pkg}/`;
  const spec = more.version ? `${pkg}@${more.version}` : pkg;
  const start = runner === 'npx' ? ['-y', spec] : [spec];
  return {
    id,
    name: id,
    title,
    description,
    runner,
    homepage,
    params: more.params ?? [],
    build: (params) => ({ transport: 'stdio', command: runner, args: [...start, ...(more.args?.(params) ?? [])] }),
  };
}

function specs(context: TemplateContext): TemplateSpec[] {
  return [
    {
      id: 'filesystem',
      name: 'filesystem',
      title: { zh: '文件系统', en: 'Filesystem' },
      description: { zh: '读取、搜索和编辑你指定文件夹中的文件。', en: 'Read, search and edit the files of a folder you choose.' },
      runner: 'node',
      pkg: '@modelcontextprotocol/server-filesystem',
      homepage: 'https://www.npmjs.com/package/@modelcontextprotocol/server-filesystem',
      params: [folderParam('共享的文件夹', 'Folder to share', context.homeDir)],
      build: (params, bin) => ({ transport: 'stdio', command: 'node', args: [bin!, param(params, 'folder')] }),
    },
    {
      id: 'memory',
      name: 'memory',
      title: { zh: '记忆', en: 'Memory' },
      description: { zh: '跨对话记住实体与关系的知识图谱。', en: 'A knowledge graph that remembers entities and relations across conversations.' },
      runner: 'node',
      pkg: '@modelcontextprotocol/server-memory',
      homepage: 'https://www.npmjs.com/package/@modelcontextprotocol/server-memory',
      params: [{ key: 'file', label: { zh: '记忆文件', en: 'Memory file' }, kind: 'file', required: true, default: path.join(context.hostDir, 'memory.jsonl') }],
      build: (params, bin) => ({ transport: 'stdio', command: 'node', args: [bin!], env: [{ key: 'MEMORY_FILE_PATH', value: { kind: 'text', text: param(params, 'file') } }] }),
    },
    published(
      'uvx',
      {
        id: 'git',
        title: { zh: 'Git', en: 'Git' },
        description: { zh: '读取、搜索和操作一个 Git 仓库（PyPI 的 mcp-server-git，需要 uv）。', en: 'Read, search and work with a Git repository (mcp-server-git from PyPI; needs uv).' },
      },
      'mcp-server-git',
      { params: [folderParam('仓库文件夹', 'Repository folder')], args: (params) => ['--repository', param(params, 'folder')] },
    ),
    published(
      'npx',
      {
        id: 'sequential-thinking',
        title: { zh: '分步思考', en: 'Sequential thinking' },
        description: { zh: '让模型分步骤思考与修正（npm 包，用 npx 启动）。', en: 'Lets the model think step by step and revise (npm package, started with npx).' },
      },
      '@modelcontextprotocol/server-sequential-thinking',
    ),
    published(
      'npx',
      {
        id: 'playwright',
        title: { zh: '浏览器（Playwright）', en: 'Browser (Playwright)' },
        description: {
          zh: '用真实浏览器打开网页、点击与填写（npm 的 @playwright/mcp，用 npx 启动）。',
          en: 'Open pages, click and fill forms in a real browser (@playwright/mcp from npm, started with npx).',
        },
      },
      '@playwright/mcp',
      { version: 'latest' },
    ),
    published(
      'npx',
      {
        id: 'everything',
        title: { zh: 'Everything（协议示例）', en: 'Everything (protocol demo)' },
        description: {
          zh: '演示 MCP 协议全部功能的参考服务器，适合试用（npm 包，用 npx 启动）。',
          en: 'The reference server that exercises every MCP feature, for trying things out (npm package, started with npx).',
        },
      },
      '@modelcontextprotocol/server-everything',
    ),
  ];
}

/** The bin of a bundled template's package; undefined where this installation does not have it (the template is then not offered). */
function binOf(spec: TemplateSpec, context: TemplateContext): string | undefined {
  if (!spec.pkg) return undefined;
  try {
    return resolvePackageBin(context.appRoot, spec.pkg);
  } catch {
    return undefined;
  }
}

function inputOf(spec: TemplateSpec, name: string, params: Params, bin: string | undefined): McpServerInputParsed {
  const built = spec.build(params, bin);
  return { name, env: [], headers: [], ...built };
}

function defaults(spec: TemplateSpec): Params {
  return new Map(spec.params.flatMap((p) => (p.default === undefined ? [] : [[p.key, p.default] as const])));
}

/** The templates this installation offers, each with the server its defaults make. */
export function listTemplates(context: TemplateContext): McpTemplate[] {
  return specs(context).flatMap((spec) => {
    const bin = binOf(spec, context);
    if (spec.pkg && !bin) return [];
    const { build: _build, pkg: _pkg, ...shown } = spec;
    return [{ ...shown, bundled: spec.pkg !== undefined, input: inputOf(spec, spec.name, defaults(spec), bin) }];
  });
}

/** The server a template makes under `name` with the user's values (a missing required value is refused with its field). */
export function templateInput(context: TemplateContext, id: string, name: string | undefined, values: Readonly<Record<string, string>>): McpServerInputParsed {
  const all = specs(context);
  const spec = all.find((s) => s.id === id);
  const bin = spec ? binOf(spec, context) : undefined;
  if (!spec || (spec.pkg && !bin)) {
    throw new McpAdminError(
      'MCP_TEMPLATE_UNKNOWN',
      `no template "${id}"`,
      `use one of: ${listTemplates(context)
        .map((t) => t.id)
        .join(', ')}`,
    );
  }
  const params = new Map(defaults(spec));
  for (const p of spec.params) {
    const given = ownValue(values, p.key);
    if (given !== undefined && given.trim() !== '') params.set(p.key, given.trim());
    if (p.required && !params.get(p.key)) {
      throw new McpAdminError('MCP_SERVER_INVALID', `template "${id}" needs ${p.label.en.toLowerCase()}`, `give ${p.key}, e.g. a path such as ${context.homeDir}`, [
        { path: `params.${p.key}`, message: 'must not be empty' },
      ]);
    }
    if (p.kind !== 'text' && params.has(p.key) && !path.isAbsolute(params.get(p.key)!)) {
      throw new McpAdminError('MCP_SERVER_INVALID', `${p.key} must be an absolute path, not "${params.get(p.key)}"`, `give the full path, e.g. ${path.join(context.homeDir, 'project')}`, [
        { path: `params.${p.key}`, message: 'must be an absolute path' },
      ]);
    }
  }
  return inputOf(spec, name ?? spec.name, params, bin);
}
