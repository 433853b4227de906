// Runs electronegativity's scanner on one folder and prints its findings as
// JSON on stdout (the last line). Usage:
//   node electronegativityScan.cjs <input dir> <electron version> [excluded check ids, comma-separated]
// Why not its CLI: electronegativity 1.10.3 requires 'commander' without
// declaring it, gets the hoisted commander 14, and crashes at start
// (`commander.version is not a function`). The CLI only parses its flags and
// calls this same runner, with the same options.
const path = require('node:path');

// At start electronegativity downloads translations of its messages (got, a 1 s timeout, then retries); offline, a
// retry can crash it ("The `onCancel` handler was attached after the promise settled"), failing the scan now and then.
// The texts are no part of a scan: the download is answered "unavailable" at once, and it keeps its bundled English.
const gotPath = require.resolve('got', { paths: [path.dirname(require.resolve('@doyensec/electronegativity/dist/runner.js'))] });
require.cache[gotPath] = { id: gotPath, filename: gotPath, loaded: true, exports: () => Promise.reject(new Error('translations are not downloaded during a scan')) };
const run = require('@doyensec/electronegativity/dist/runner.js');

const [input, electronVersion, excluded = ''] = process.argv.slice(2);
if (!input || !electronVersion) {
  console.error('usage: node electronegativityScan.cjs <input dir> <electron version> [excluded checks]');
  process.exit(2);
}

run({
  input: path.resolve(input),
  output: undefined,
  isSarif: false,
  customScan: [],
  excludeFromScan: excluded
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean),
  severitySet: undefined,
  confidenceSet: undefined,
  isRelative: true,
  isVerbose: true,
  electronUpgrade: undefined,
  electronVersionOverride: electronVersion,
  parserPlugins: [],
}).then(
  (result) => {
    const issues = result.issues.map((issue) => ({
      id: issue.id,
      file: issue.file,
      line: issue.location.line,
      column: issue.location.column,
      severity: issue.severity.name,
      confidence: issue.confidence.name,
      description: issue.description,
      manualReview: Boolean(issue.manualReview),
    }));
    const checks = result.globalChecks + result.atomicChecks;
    process.stdout.write(`\n${JSON.stringify({ checks, errors: result.errors, issues })}\n`);
  },
  (error) => {
    console.error(error.stack ?? String(error));
    process.exit(1);
  },
);
