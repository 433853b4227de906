import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import calls from '../../renderer/src/i18n/lazy/calls.js';
import sampling from '../../renderer/src/i18n/lazy/sampling.js';

/**
 * Small texts a new user tripped over (issue 45): one step of progress is
 * "1 step done", not "1 steps done"; sampling's "always allow" names a
 * server as a server, so a server called `everything` does not read as
 * "Always allow everything". Said through i18next as the renderer sets it up.
 */

async function texts(lng: 'en' | 'zh') {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng,
    fallbackLng: 'en',
    resources: { en: { translation: { ...calls.en, ...sampling.en } }, zh: { translation: { ...calls.zh, ...sampling.zh } } },
    interpolation: { escapeValue: false },
  });
  return i18n.t.bind(i18n);
}

describe('texts said in the window', () => {
  it('counts steps in the singular and the plural, in both languages', async () => {
    const en = await texts('en');
    expect(en('calls.progress.count', { count: 1 })).toBe('1 step done');
    expect(en('calls.progress.count', { count: 3 })).toBe('3 steps done');
    const zh = await texts('zh');
    expect(zh('calls.progress.count', { count: 1 })).toBe('已完成 1 步');
    expect(zh('calls.progress.count', { count: 3 })).toBe('已完成 3 步');
  });

  it('names a server as a server in sampling’s "always allow"', async () => {
    expect((await texts('en'))('sampling.always', { server: 'everything' })).toMatch(/^Always allow server “everything” /);
    expect((await texts('zh'))('sampling.always', { server: 'everything' })).toContain('服务器“everything”');
  });
});
