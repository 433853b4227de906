import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHost, type Host } from '../../../src/core/host.js';
import { KnowledgeError, type KnowledgeErrorCode } from '../../../src/core/knowledge/knowledgeError.js';
import { pdfWithText } from '../../helpers/pdfFile.js';
import { tempDir } from '../../helpers/tempDir.js';
import { expect } from 'vitest';

/** A Markdown guide whose sections are about clearly different things. */
export const GUIDE_MD = `# Garden guide

Welcome to the garden guide. It covers soil, water and pests.

## Soil

Tomatoes like loose soil rich in compost. Add mulch in spring so the soil keeps its moisture.

## Watering

Water deeply twice a week in the morning. Drip irrigation saves water and keeps the leaves dry.

## Pests

Aphids gather under the leaves. Ladybugs eat aphids, so plant marigolds to invite ladybugs.
`;

/** A two-page PDF; the second page is the only place that speaks of volcanoes. */
export const FIELD_NOTES_PDF = pdfWithText([
  ['Field notes from the coast.', 'The tide pools hold crabs and anemones.'],
  ['Volcanic basalt forms the northern cliffs.', 'The old volcano last erupted ten thousand years ago.'],
]);

export function writeFixtures(dir: string): { md: string; pdf: string } {
  const md = path.join(dir, 'guide.md');
  const pdf = path.join(dir, 'field-notes.pdf');
  fs.writeFileSync(md, GUIDE_MD);
  fs.writeFileSync(pdf, FIELD_NOTES_PDF);
  return { md, pdf };
}

const hosts: Host[] = [];

export async function startedHost(home = tempDir('chatos-kb-home-')): Promise<Host> {
  const host = createHost({ home, env: {}, builtinPluginsDir: tempDir('chatos-kb-builtin-'), defaultsDir: tempDir('chatos-kb-defaults-') });
  hosts.push(host);
  await host.start();
  return host;
}

export async function disposeHosts(): Promise<void> {
  for (const host of hosts.splice(0)) await host.dispose();
}

export async function knowledgeError(promise: Promise<unknown>, code: KnowledgeErrorCode): Promise<KnowledgeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected ${code}`).toBeInstanceOf(KnowledgeError);
  expect((error as KnowledgeError).code).toBe(code);
  return error as KnowledgeError;
}
