import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServerSettings } from '../../../../src/core/mcp/settings/serverSettings.js';
import { RecordsStore } from '../../../../src/core/store/recordsStore.js';
import { tempDir } from '../../../helpers/tempDir.js';

/** Object.prototype's members: a server may name its tools after any of them. */
const PROTOTYPE_NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__', '__defineGetter__'];

describe('ServerSettings, for tools named after Object.prototype members', () => {
  it('has no override for them until one is set, then keeps exactly that one, across a reopen of the DB file', async () => {
    const file = path.join(tempDir(), 'admin.db');
    const store = await RecordsStore.open(file, { backups: 0 });
    const settings = new ServerSettings(store);
    for (const name of PROTOTYPE_NAMES) expect(settings.overrideOf('chatos::fx', name), name).toBeUndefined();

    settings.setPermission('chatos::fx', '__proto__', 'read');
    settings.setPermission('chatos::fx', 'constructor', 'confirm');
    expect(settings.overrideOf('chatos::fx', '__proto__')).toBe('read');
    expect(settings.overrideOf('chatos::fx', 'constructor')).toBe('confirm');
    expect(settings.overrideOf('chatos::fx', 'toString')).toBeUndefined();
    await store.close();

    const store2 = await RecordsStore.open(file, { backups: 0 });
    const reopened = new ServerSettings(store2);
    expect(reopened.overrideOf('chatos::fx', '__proto__')).toBe('read');
    expect(reopened.overrideOf('chatos::fx', 'constructor')).toBe('confirm');
    expect(reopened.overrideOf('chatos::fx', 'valueOf')).toBeUndefined();
    reopened.setPermission('chatos::fx', '__proto__', undefined);
    expect(reopened.overrideOf('chatos::fx', '__proto__')).toBeUndefined();
    expect(Object.keys(reopened.of('chatos::fx').permissionOverrides)).toEqual(['constructor']);
    await store2.close();
  });
});
