/**
 * `npm run bench`: runs each benchmark section, prints its table, and exits
 * non-zero when a target fails or a section throws (a broken scan must not
 * pass as "fast"). Sections live in scripts/bench/; add one to SECTIONS.
 */
import { runCanvasBench } from './bench/canvasBench.js';
import { runChatBench } from './bench/chatBench.js';
import { runChatMemoryBench } from './bench/chatMemoryBench.js';
import { runChatUiBench } from './bench/chatUiBench.js';
import { runCliBench } from './bench/cliBench.js';
import { runGatewayBench } from './bench/gatewayBench.js';
import { runKnowledgeBench } from './bench/knowledgeBench.js';
import { runKnowledgeScaleBench } from './bench/knowledgeScaleBench.js';
import { runLeaseBench } from './bench/leaseBench.js';
import { runLinearBench } from './bench/linearBench.js';
import { runLongChatBench } from './bench/longChatBench.js';
import { runProcessBudgetBench } from './bench/processBudgetBench.js';
import { runRegistryBench } from './bench/registryBench.js';
import { runScanBench } from './bench/scanBench.js';
import { runUiBench } from './bench/uiBench.js';
import { info, type BenchRow, type BenchSection } from './bench/section.js';

const SECTIONS: { name: string; run: () => Promise<BenchSection> }[] = [
  { name: 'plugin scan', run: runScanBench },
  { name: 'registry', run: runRegistryBench },
  { name: 'MCP gateway', run: runGatewayBench },
  { name: 'renderer ui', run: runUiBench },
  { name: 'page leases', run: runLeaseBench },
  { name: 'chat', run: runChatBench },
  { name: 'chat ui', run: runChatUiBench },
  { name: 'long chat', run: runLongChatBench },
  { name: 'chat memory', run: runChatMemoryBench },
  { name: 'canvas', run: runCanvasBench },
  { name: 'knowledge', run: runKnowledgeBench },
  { name: 'knowledge scale', run: runKnowledgeScaleBench },
  { name: 'process budget', run: runProcessBudgetBench },
  { name: 'cli start', run: runCliBench },
  { name: 'linear cost', run: runLinearBench },
];

function formatValue(value: number): string {
  const abs = Math.abs(value);
  return value.toFixed(abs >= 1000 ? 0 : abs >= 10 ? 1 : 2);
}

function printSection(section: BenchSection): void {
  const cells = section.rows.map((row: BenchRow) => [row.name, `${formatValue(row.value)} ${row.unit}`, row.target ?? '', row.pass === undefined ? '' : row.pass ? 'PASS' : 'FAIL']);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...cells.map((c) => c[i]!.length), ['figure', 'value', 'target', 'result'][i]!.length));
  const line = (c: string[]) => `  ${c[0]!.padEnd(widths[0]!)}  ${c[1]!.padStart(widths[1]!)}  ${c[2]!.padEnd(widths[2]!)}  ${c[3]!}`.trimEnd();

  console.log(`\n== ${section.title} ==`);
  console.log(line(['figure', 'value', 'target', 'result']));
  let group: string | undefined;
  section.rows.forEach((row, i) => {
    if (row.group !== group) {
      group = row.group;
      if (group) console.log(`  -- ${group} --`);
    }
    console.log(line(cells[i]!));
  });
  for (const note of section.notes ?? []) console.log(`  note: ${note}`);
}

async function main(): Promise<void> {
  console.log(`ChatOS benchmarks: node ${process.version}, ${process.platform}/${process.arch}`);
  let failures = 0;
  // `npm run bench -- gateway` runs only the sections whose name contains a given word.
  const only = process.argv.slice(2);
  for (const { name, run } of SECTIONS.filter((section) => only.length === 0 || only.some((word) => section.name.includes(word)))) {
    try {
      const section = await run();
      printSection(section);
      failures += section.rows.filter((row) => row.pass === false).length;
    } catch (error) {
      failures++;
      console.error(`\n== ${name}: FAILED ==\n  ${(error as Error).stack ?? String(error)}`);
    }
  }
  // maxRSS is in KiB; it is the peak over the whole run, so it covers every section.
  printSection({ title: 'Process', rows: [info('peak RSS', process.resourceUsage().maxRSS / 1024, 'MiB')] });
  console.log(failures === 0 ? '\nAll targets met.' : `\n${failures} target(s) or section(s) failed.`);
  if (failures > 0) process.exitCode = 1;
}

await main();
