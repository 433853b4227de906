#!/usr/bin/env node
// `npm run package:check`: runs electron-builder's pipeline for Linux's
// `dir` target with a stand-in Electron (its binary cannot be downloaded on
// our build machines), then checks what came out: app.asar holds the
// compiled app and nothing of the sources; everything a child process must
// read is a real file in app.asar.unpacked/, readable by every user, proven
// by starting the servers the packaged host would start, from there; with no
// node on PATH the packaged host's own launch of the built-in Notes server
// runs it under the app's own Node; and nothing is written inside the app
// meanwhile. The other Linux targets (AppImage, deb, tar.gz) each pack that
// same unpacked tree, so their configuration is checked as written.
//
//   node scripts/packageCheck.mjs [--no-build] [--tar] [--keep]
//     --no-build  use dist/ as it is (npm test has just built it)
//     --tar       also build the tar.gz with the system's 7-Zip (electron-builder
//                 would download its own) and check its listing: a second
//                 copy of the whole 150 MB tree, which doubled the check's time
//     --keep      keep the temp folder with the packaged app, and print it
// Exit 0 when every check passed, 1 otherwise (each failure is printed).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const args = new Set(process.argv.slice(2));
const failures = [];
const timings = [];

function fail(message) {
  failures.push(message);
  console.error(`  ✗ ${message}`);
}
function pass(message) {
  console.log(`  ✓ ${message}`);
}
function check(condition, message) {
  if (condition) pass(message);
  else fail(message);
  return condition;
}
async function timed(label, work) {
  const started = Date.now();
  console.log(`${label}…`);
  try {
    return await work();
  } finally {
    timings.push([label, Date.now() - started]);
  }
}

function run(command, commandArgs, options = {}) {
  const result = spawnSync(command, commandArgs, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.status !== 0) {
    process.stderr.write(result.stdout ?? '');
    process.stderr.write(result.stderr ?? '');
    throw new Error(`${path.basename(command)} ${commandArgs.join(' ')} exited with ${result.status ?? result.signal}`);
  }
  return result;
}

/** A folder electron-builder accepts as an unpacked Linux Electron: one executable named `electron`. */
function standInElectron(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const binary = path.join(dir, 'electron');
  fs.writeFileSync(binary, '#!/bin/sh\necho "stand-in Electron from scripts/packageCheck.mjs: it runs nothing" >&2\nexit 1\n');
  fs.chmodSync(binary, 0o755);
  return dir;
}

/**
 * electron-builder compresses a tar.gz with 7-Zip, which it would download;
 * the system's (Debian's `7zip`, `p7zip-full`) is used instead.
 */
function system7zip() {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    for (const name of ['7za', '7zz', '7z']) {
      const file = path.join(dir, name);
      if (fs.statSync(file, { throwIfNoEntry: false })?.isFile()) return file;
    }
  }
  return undefined;
}

/** Every file under `dir` with its size and modification time: what "nothing was written inside the app" compares. */
function treeState(dir) {
  const state = new Map();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const stat = fs.lstatSync(file);
    state.set(file, `${stat.size}:${stat.mtimeMs}`);
  }
  return state;
}

function treeChanges(before, after) {
  const changed = [];
  for (const [file, state] of after) if (before.get(file) !== state) changed.push(file);
  for (const file of before.keys()) if (!after.has(file)) changed.push(`${file} (removed)`);
  return changed;
}

/**
 * The packaged host's own launch of a built-in server where PATH has no
 * node: the core (this checkout's dist/, the same files app.asar holds) on
 * the unpacked tree, its servers' environment given a PATH without node, so
 * the Notes server can only start under the app's own Node. In the packaged
 * app that is Electron's binary with ELECTRON_RUN_AS_NODE=1; the stand-in
 * Electron runs nothing, so the Node running this check stands in for it
 * (process.execPath, exactly what the core picks outside Electron).
 */
async function bundledNodeLaunch(unpackedRoot, defaultsDir, work) {
  const noNode = fs.mkdtempSync(path.join(work, 'path-without-node-'));
  const home = fs.mkdtempSync(path.join(work, 'home-'));
  const { createHost, silentLogger } = await import(pathToFileURL(path.join(repoRoot, 'dist', 'src', 'core', 'host.js')).href);
  const { nodeLaunch } = await import(pathToFileURL(path.join(repoRoot, 'dist', 'src', 'core', 'runtime', 'nodeRuntime.js')).href);
  const launch = nodeLaunch('node', undefined, noNode);
  check(launch.runtime === 'bundled' && launch.command === process.execPath, `with no node on PATH, a node server runs under the app's own Node (${launch.runtime}: ${launch.command})`);
  const host = createHost({
    home,
    appRoot: unpackedRoot,
    builtinPluginsDir: path.join(unpackedRoot, 'plugins'),
    defaultsDir,
    sessionRoot: work,
    env: { ...process.env, PATH: noNode },
    logger: silentLogger,
  });
  try {
    await host.start();
    const definition = host.mcp.definitions().find((d) => d.plugin?.pluginId === 'chatos.notes');
    if (
      !check(
        definition?.transport.kind === 'stdio' && definition.transport.command === 'node',
        `the built-in Notes server's command is node (${definition?.transport.kind === 'stdio' ? definition.transport.command : 'none'})`,
      )
    )
      return;
    // Started by the server administration, as the MCP servers page starts one to list its tools.
    const { tools } = await host.mcp.servers.tools(definition.id);
    check(
      tools.length > 0,
      `the packaged host started the Notes server with PATH=${noNode} (no node) and it lists ${tools.length} tools (${tools
        .slice(0, 3)
        .map((t) => t.rawName)
        .join(', ')}…)`,
    );
  } catch (error) {
    fail(`the packaged host could not start the Notes server with no node on PATH: ${error.message}`);
  } finally {
    await host.dispose();
  }
}

/** Starts a stdio MCP server with a plain node, lists its tools, and stops it. */
async function listToolsOf(label, command, commandArgs, env, cwd) {
  const { Client } = await import(pathToFileURL(require.resolve('@modelcontextprotocol/sdk/client/index.js')).href);
  const { StdioClientTransport, getDefaultEnvironment } = await import(pathToFileURL(require.resolve('@modelcontextprotocol/sdk/client/stdio.js')).href);
  const stderr = [];
  const transport = new StdioClientTransport({ command, args: commandArgs, env: { ...getDefaultEnvironment(), ...env }, cwd, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk) => stderr.push(String(chunk)));
  const client = new Client({ name: 'chatos-package-check', version: '1.0.0' });
  const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error('no answer within 20 s')), 20_000).unref());
  try {
    await Promise.race([client.connect(transport), timeout]);
    const { tools } = await Promise.race([client.listTools(), timeout]);
    check(
      tools.length > 0,
      `${label} starts from the unpacked tree and lists ${tools.length} tools (${tools
        .slice(0, 3)
        .map((t) => t.rawName)
        .join(', ')}…)`,
    );
  } catch (error) {
    fail(`${label} did not start from the unpacked tree: ${error.message}${stderr.length ? `\n      ${stderr.join('').trim().split('\n').slice(-5).join('\n      ')}` : ''}`);
  } finally {
    await client.close().catch(() => {});
  }
}

/**
 * Where the packaged app is written: memory (/dev/shm) where the machine has
 * it with room to spare, else the temp folder. Packing is 20,000 small files
 * written, read back and removed; on a shared disk that waiting, not the
 * work, was most of the check's time.
 */
function scratchRoot() {
  const shm = '/dev/shm';
  try {
    const { bavail, bsize } = fs.statfsSync(shm);
    if (fs.statSync(shm).isDirectory() && bavail * bsize > 2 ** 31) return shm;
  } catch {
    // No /dev/shm (macOS, Windows): the temp folder.
  }
  return os.tmpdir();
}

/**
 * The Linux installers as electron-builder.yml asks for them. AppImage, deb and
 * tar.gz are each made from the linux-unpacked tree built here (the first two
 * need tools electron-builder downloads), so what is left to check of them is
 * their configuration: the three targets, the artifact name the docs and the
 * release notes give, the deb's dependencies, the executable's name, and the
 * unpacked folders the tree above was checked for; as electron-builder loads
 * and validates the configuration (`config`, as the .mcpb association is read).
 */
function linuxTargetsConfig(config, executable, version) {
  const linuxTargets = [config.linux?.target ?? []].flat().map((t) => (typeof t === 'string' ? t : t.target));
  check(
    ['AppImage', 'deb', 'tar.gz'].every((t) => linuxTargets.includes(t)),
    `electron-builder.yml builds the Linux targets AppImage, deb and tar.gz (${linuxTargets.join(', ')})`,
  );
  const artifact = String(config.artifactName ?? '')
    .replaceAll('${productName}', config.productName)
    .replaceAll('${version}', version)
    .replaceAll('${os}', 'linux')
    .replaceAll('${arch}', 'x64')
    .replaceAll('${ext}', 'tar.gz');
  check(artifact === `ChatOS-${version}-linux-x64.tar.gz`, `the tar.gz is named ${artifact}`);
  check(config.linux?.executableName === executable, `the Linux executable is ${config.linux?.executableName}`);
  const depends = config.deb?.depends ?? [];
  check(
    depends.includes('libgtk-3-0') && depends.includes('libnss3') && !depends.some((d) => /^nodejs?\b/.test(d)),
    `the deb depends on Electron's libraries and no Node (${depends.length} packages)`,
  );
  const unpack = [config.asarUnpack ?? []].flat();
  check(
    ['plugins/**', 'templates/**', 'runtime/**', 'node_modules/**'].every((glob) => unpack.includes(glob)),
    `asarUnpack names plugins, templates, runtime and node_modules (${unpack.join(', ')})`,
  );
}

async function main() {
  const electronVersion = JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
  // Outside the repository, so no module can resolve from the repository's node_modules by accident.
  const work = fs.mkdtempSync(path.join(scratchRoot(), 'chatos-package-'));
  const out = path.join(work, 'out');
  try {
    if (!args.has('--no-build'))
      await timed('build (npm run build)', () => run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' }));
    for (const built of ['dist/electron/main.js', 'dist/electron/preload.cjs', 'dist/renderer/index.html']) {
      if (!fs.existsSync(path.join(repoRoot, built))) throw new Error(`${built} is missing: run npm run build first (or drop --no-build)`);
    }

    const targets = args.has('--tar') ? ['dir', 'tar.gz'] : ['dir'];
    await timed(`electron-builder --linux ${targets.join(' ')} (stand-in Electron ${electronVersion})`, () =>
      run(
        process.execPath,
        [
          require.resolve('electron-builder/cli.js'),
          '--linux',
          ...targets,
          '--publish',
          'never',
          `-c.electronDist=${standInElectron(path.join(work, 'electron-dist'))}`,
          `-c.electronVersion=${electronVersion}`,
          `-c.directories.output=${out}`,
          // The check reads the archive's listing, not its size: the fastest gzip level keeps it quick.
        ],
        { env: { ...process.env, ELECTRON_BUILDER_COMPRESSION_LEVEL: '1', ...(system7zip() ? { ELECTRON_BUILDER_7ZIP_PATH: system7zip() } : {}) } },
      ),
    );

    await timed('checks', async () => {
      const appOut = path.join(out, 'linux-unpacked');
      const resources = path.join(appOut, 'resources');
      const archive = path.join(resources, 'app.asar');
      const unpackedRoot = `${archive}.unpacked`;
      const { name: executable } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
      check(fs.existsSync(path.join(appOut, executable)), `the app's executable is ${executable}`);
      if (!check(fs.existsSync(archive), 'resources/app.asar exists')) return;

      const asar = require('@electron/asar');
      const listed = new Set(asar.listPackage(archive, { isPack: false }).map((p) => p.split(path.sep).join('/').replace(/^\/?/, '')));
      const packed = (file) => listed.has(file) && !asar.statFile(archive, file).unpacked;
      const unpacked = (file) => listed.has(file) && asar.statFile(archive, file).unpacked === true && fs.statSync(path.join(unpackedRoot, file), { throwIfNoEntry: false })?.isFile() === true;

      // The app itself, packed, and the very files this checkout built.
      for (const file of [
        'package.json',
        'dist/electron/main.js',
        'dist/electron/preload.cjs',
        'dist/renderer/index.html',
        'dist/src/core/host.js',
        'dist/src/core/uiApps/backendRunner.js',
        'dist/src/core/builtinTools/calculatorWorker.js',
        'defaults/providers/aide/mcpServers.yaml',
      ]) {
        check(packed(file), `app.asar holds ${file}`);
      }
      check(asar.extractFile(archive, 'dist/electron/main.js').equals(fs.readFileSync(path.join(repoRoot, 'dist/electron/main.js'))), 'the packed main.js is the one just built');
      const manifest = JSON.parse(asar.extractFile(archive, 'package.json').toString('utf8'));
      check(manifest.main === 'dist/electron/main.js' && manifest.type === 'module', `package.json: main ${manifest.main}, type ${manifest.type}`);
      // The configuration electron-builder packed with, as it loads and validates it: a double-clicked .mcpb opens
      // with ChatOS (electron/main.ts). The linux dir target writes no .desktop file to look in.
      // Its own copy of the loader: the app-builder-lib and builder-util electron-builder itself runs with.
      const fromBuilder = createRequire(require.resolve('electron-builder/cli.js'));
      const { getConfig, validateConfiguration } = fromBuilder('app-builder-lib/out/util/config/config');
      const { DebugLogger } = fromBuilder('builder-util');
      const loaded = await getConfig(repoRoot, null, null);
      await validateConfiguration(loaded, new DebugLogger());
      const associations = [loaded.fileAssociations ?? []].flat();
      check(
        associations.some((a) => [a.ext].flat().includes('mcpb') && a.mimeType === 'application/x-mcpb'),
        `the packaged config associates .mcpb files with the app (${JSON.stringify(associations)})`,
      );
      // The deb target (and rpm's) refuse to build without it: "Please specify project homepage".
      check(/^https:\/\//.test(manifest.homepage ?? ''), `package.json: homepage ${manifest.homepage} (deb and rpm need one)`);

      // What child processes read: real files.
      for (const file of [
        'plugins/notes/plugin.json',
        'plugins/notes/mcp/server.mjs',
        'plugins/notes/backend/index.mjs',
        'templates/plugin/plugin.json',
        'node_modules/sql.js/dist/sql-wasm.wasm',
        // The knowledge graph's native module, prebuilt for N-API (electron-builder.yml: npmRebuild false).
        'node_modules/usearch/prebuilds/linux-x64/usearch.node',
        'node_modules/@modelcontextprotocol/sdk/package.json',
        'node_modules/zod/package.json',
      ]) {
        check(unpacked(file), `app.asar.unpacked holds ${file}`);
      }

      // Nothing of the sources, the tests or the development tools.
      const leaked = [...listed].filter(
        (file) =>
          /^(src|test|renderer|electron|scripts|release|dist\/scripts)(\/|$)/.test(file) ||
          /\.map$/.test(file) ||
          /^tsconfig.*\.json$|^vitest\.config|^electron-builder\.yml$/.test(file) ||
          /^node_modules\/(electron|electron-builder|vite|vitest|typescript|react|react-dom|antd|playwright-core|@doyensec|@types)(\/|$)/.test(file),
      );
      check(
        leaked.length === 0,
        leaked.length ? `sources or dev tools were packaged: ${leaked.slice(0, 8).join(', ')}${leaked.length > 8 ? ', …' : ''}` : 'no sources, tests, source maps or dev dependencies were packaged',
      );
      const size = fs.statSync(archive).size;
      const unpackedSize = Number(run('du', ['-sk', unpackedRoot]).stdout.split(/\s/)[0]) * 1024;
      console.log(`  app.asar ${(size / 1e6).toFixed(1)} MB, app.asar.unpacked ${(unpackedSize / 1e6).toFixed(1)} MB`);

      const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
      linuxTargetsConfig(loaded, executable, version);
      // The tar.gz holds the same tree, under one folder.
      if (targets.includes('tar.gz')) {
        const tarball = path.join(out, `ChatOS-${version}-linux-x64.tar.gz`);
        if (check(fs.existsSync(tarball), `the tar.gz is ${path.basename(tarball)}`)) {
          const entries = run('tar', ['-tzf', tarball]).stdout.split('\n');
          const top = `ChatOS-${version}-linux-x64/`;
          check(
            entries.includes(`${top}resources/app.asar`) && entries.includes(`${top}${executable}`) && entries.includes(`${top}resources/app.asar.unpacked/plugins/notes/mcp/server.mjs`),
            `the tar.gz holds ${top}${executable}, resources/app.asar and the unpacked built-ins`,
          );
        }
      }

      // The built-ins are readable by anyone who may run the app (an install owned by root, run by a user).
      const unreadable = [...treeState(path.join(unpackedRoot, 'plugins')).keys()].filter((file) => (fs.statSync(file).mode & 0o004) === 0);
      check(unreadable.length === 0, unreadable.length ? `built-in files not readable by others: ${unreadable.slice(0, 5).join(', ')}` : 'every built-in plugin file is readable by every user');

      // Start what the packaged host would start, with a plain node, from the real tree:
      // the built-in Notes plugin's server, and the servers defaults/ bundles (resolved by the core's own code).
      const before = treeState(appOut);
      const scratch = fs.mkdtempSync(path.join(work, 'run-'));
      await listToolsOf('the Notes plugin server', process.execPath, [path.join(unpackedRoot, 'plugins', 'notes', 'mcp', 'server.mjs')], {}, scratch);
      const { loadProviderDefaults } = await import(pathToFileURL(path.join(repoRoot, 'dist', 'src', 'core', 'registry', 'providerDefaults.js')).href);
      const { parseCmdUrl } = await import(pathToFileURL(path.join(repoRoot, 'dist', 'src', 'core', 'naming', 'cmdUrl.js')).href);
      // The packaged defaults/ are read by the main process from the archive; this reads the same files from an extract.
      const defaultsDir = path.join(work, 'defaults');
      for (const file of [...listed].filter((f) => f.startsWith('defaults/') && !asar.statFile(archive, f).files)) {
        fs.mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
        fs.writeFileSync(path.join(work, file), asar.extractFile(archive, file));
      }
      const vars = { appRoot: unpackedRoot, home: scratch, appDir: path.join(scratch, 'aide'), sessionRoot: scratch, projectRoot: scratch };
      const defaults = loadProviderDefaults(defaultsDir, 'aide', unpackedRoot, vars);
      check(defaults.problems.length === 0, `defaults/providers/aide resolves against the unpacked tree${defaults.problems.length ? `: ${defaults.problems.map((p) => p.message).join('; ')}` : ''}`);
      for (const server of defaults.servers) {
        const { command, args: serverArgs } = parseCmdUrl(server.url);
        if (!check(serverArgs[0]?.startsWith(unpackedRoot) === true, `aide's ${server.name} runs ${path.relative(resources, serverArgs[0] ?? '')}`)) continue;
        await listToolsOf(`aide's ${server.name} server`, command === 'node' ? process.execPath : command, serverArgs, server.env, scratch);
      }
      await bundledNodeLaunch(unpackedRoot, defaultsDir, work);
      const written = treeChanges(before, treeState(appOut));
      check(written.length === 0, written.length ? `files were written inside the app: ${written.slice(0, 5).join(', ')}` : 'nothing was written inside the app while its servers ran');
    });
  } finally {
    if (args.has('--keep')) console.log(`kept ${work}`);
    else fs.rmSync(work, { recursive: true, force: true });
  }
}

const started = Date.now();
main()
  .catch((error) => fail(error.message))
  .finally(() => {
    console.log(`timing: ${timings.map(([label, ms]) => `${label.split(' (')[0]} ${(ms / 1000).toFixed(1)} s`).join(', ')}; total ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (failures.length) {
      console.error(`package check FAILED (${failures.length})`);
      process.exitCode = 1;
    } else console.log('package check passed');
  });
