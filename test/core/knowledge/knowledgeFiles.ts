import * as fs from 'node:fs';
import * as path from 'node:path';
import { pdfWithText } from '../../helpers/pdfFile.js';

/**
 * The files the knowledge tests index, with no import of the host: the
 * browser test (test/ui/knowledge.browser.test.ts) writes them for its
 * `chatos serve` and would otherwise load src/core for nothing.
 */

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
