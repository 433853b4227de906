import { describe, expect, it } from 'vitest';
import { rootKindKey } from '../../renderer/src/components/apps/rootKind.js';
import texts from '../../renderer/src/i18n/lazy/roots.js';
import { PluginSourceSchema } from '../../src/shared/appContribution.js';

describe("the plugin folders' kind tags", () => {
  it("word every kind of root in both languages (a dev link's folder too)", () => {
    const roots = PluginSourceSchema.options.flatMap((source) => [true, false].map((remembered) => ({ source, remembered })));
    for (const root of roots) {
      const key = rootKindKey(root);
      expect(Object.hasOwn(texts.zh, key), `zh ${key}`).toBe(true);
      expect(Object.hasOwn(texts.en, key), `en ${key}`).toBe(true);
    }
    expect(texts.en[rootKindKey({ source: 'dev', remembered: false }) as keyof typeof texts.en]).toBe('development link');
  });
});
