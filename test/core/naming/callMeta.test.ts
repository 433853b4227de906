import { describe, expect, it } from 'vitest';
import type { UiAppMeta } from '../../../src/shared/appContribution.js';
import { buildCallMeta, expandMetaVariables } from '../../../src/core/naming/callMeta.js';

const uiApp: UiAppMeta = {
  pluginId: 'com.example.tools',
  appId: 'db-client',
  pluginDir: '/apps/plugins/tools',
  dataDir: '/home/u/.chatos/chatos/ui_apps/data/com.example.tools',
  stateDir: '/home/u/.chatos/chatos/ui_apps/state/com.example.tools',
  sessionRoot: '/work/session',
  projectRoot: '/work/project',
};

describe('expandMetaVariables', () => {
  it.each([
    ['$dataDir', uiApp.dataDir],
    ['${dataDir}', uiApp.dataDir],
    ['$dataDir/cache', `${uiApp.dataDir}/cache`],
    ['${pluginId}_suffix', 'com.example.tools_suffix'],
    ['$pluginId_suffix', '$pluginId_suffix'], // `$name` takes the longest word: `pluginId_suffix` is unknown
    ['$appId@$projectRoot', 'db-client@/work/project'],
    ['${sessionRoot}${stateDir}', `/work/session${uiApp.stateDir}`],
    ['$unknown and ${alsoUnknown}', '$unknown and ${alsoUnknown}'],
    ['$', '$'],
    ['${}', '${}'],
    ['$$dataDir', `$${uiApp.dataDir}`],
    ['no variables', 'no variables'],
    ['$toString ${constructor} $__proto__', '$toString ${constructor} $__proto__'], // only the meta's own keys
  ])('%j → %j', (input, expected) => {
    expect(expandMetaVariables(input, uiApp)).toBe(expected);
  });

  it('expands deeply, in arrays and objects, and leaves other values alone', () => {
    const input = {
      root: '$pluginDir',
      nested: { list: ['$dataDir', { deeper: ['${appId}', 7] }], flag: true, none: null },
      count: 3,
    };
    expect(expandMetaVariables(input, uiApp)).toEqual({
      root: uiApp.pluginDir,
      nested: { list: [uiApp.dataDir, { deeper: ['db-client', 7] }], flag: true, none: null },
      count: 3,
    });
    // The input is not modified.
    expect(input.root).toBe('$pluginDir');
  });

  it('does not expand keys', () => {
    expect(expandMetaVariables({ $dataDir: 'x' }, uiApp)).toEqual({ $dataDir: 'x' });
  });
});

describe('buildCallMeta (docs/rules/gateway.md#_meta)', () => {
  it('injects chatos.uiApp and defaults workdir to dataDir', () => {
    expect(buildCallMeta({}, uiApp)).toEqual({ chatos: { uiApp }, workdir: uiApp.dataDir });
  });

  it('keeps the plugin callMeta, expanded', () => {
    const meta = buildCallMeta({ tenant: 'acme', paths: ['$projectRoot/src'] }, uiApp);
    expect(meta).toEqual({ tenant: 'acme', paths: ['/work/project/src'], chatos: { uiApp }, workdir: uiApp.dataDir });
  });

  it.each([
    ['$dataDir', uiApp.dataDir],
    ['${dataDir}/work', `${uiApp.dataDir}/work`],
    ['$projectRoot', '/work/project'],
    ['/srv/fixed', '/srv/fixed'],
  ])('callMeta.workdir %j overrides workdir with %j', (workdir, expected) => {
    expect(buildCallMeta({ workdir }, uiApp).workdir).toBe(expected);
  });

  it.each([[''], [42], [null], [['/x']]])('a workdir of %j falls back to dataDir', (workdir) => {
    expect(buildCallMeta({ workdir }, uiApp).workdir).toBe(uiApp.dataDir);
  });

  it('lets the host keys win over a plugin-supplied chatos', () => {
    const meta = buildCallMeta({ chatos: { uiApp: { pluginId: 'someone.else', appId: 'x' }, extra: 1 }, other: 'kept' }, uiApp);
    expect(meta.chatos).toEqual({ uiApp });
    expect(meta.other).toBe('kept');
  });

  it('does not modify the callMeta it is given', () => {
    const raw = { workdir: '$dataDir' };
    buildCallMeta(raw, uiApp);
    expect(raw).toEqual({ workdir: '$dataDir' });
  });
});
