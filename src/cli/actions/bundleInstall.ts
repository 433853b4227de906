import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Command } from 'commander';
import { secretsKeptIfAsked, type BundleConfigField, type BundleConfigValues, type BundlePreview } from '../../shared/bundles.js';
import { downloadBundle } from '../../core/facades/plugins.js';
import { confirmStep } from '../confirmStep.js';
import { globalOptions, withStartedHost } from '../globalOptions.js';
import { UsageError, type CliContext, type CliIo } from '../output.js';
import { pairsOf } from '../pairOption.js';
import { readSecretFromStdin } from '../readSecret.js';
import { installing, printUpdate, reportInstall } from '../installReport.js';

/**
 * `chatos install FILE.mcpb` (or its https:// address; or `chatos catalog add`
 * of a registry's mcpb entry, with the SHA-256 the entry names): shows who made and
 * signed the bundle, the exact command it runs, its tools and settings, then
 * installs it as a plugin (untrusted until `chatos trust`). Settings come from
 * `--config KEY=VALUE`; a sensitive one from stdin (`--secret-stdin KEY`), or
 * is asked on a terminal, and goes to the key store. An update signed by
 * another publisher, or unsigned over an unsigned copy of the same name and
 * author, is warned about, and gets the stored secrets only with
 * `--keep-secrets`; an unsigned one of another name or author never does.
 */

const signatureText = (preview: BundlePreview) => {
  const s = preview.signature;
  if (s.status === 'unsigned') return 'unsigned';
  const until = `valid until ${s.validTo.slice(0, 10)}, SHA-256 ${s.fingerprint.slice(0, 23)}…`;
  if (s.status === 'signed') return `signed by ${s.publisher} (issued by ${s.issuer}, ${until})`;
  if (s.status === 'self-signed') return `self-signed by ${s.publisher} (${until})`;
  // No authority vouches for it: the issuer is only a name the certificate's maker wrote, not a fact.
  return `signed by ${s.publisher}, whom no certificate authority vouches for (claims to be issued by ${s.issuer}; ${until})`;
};

function printPreview(io: CliIo, preview: BundlePreview): void {
  io.out(`bundle ${preview.name} ${preview.version} by ${preview.author.name}${preview.author.email ? ` <${preview.author.email}>` : ''}: ${preview.description}`);
  io.out(`  signature: ${signatureText(preview)}`);
  io.out(`  installs as plugin ${preview.pluginId}${preview.installed ? ' (an installed copy is updated in place)' : ''}`);
  const changed = preview.signerChanged;
  if (changed) {
    const before = changed.before === null ? 'was unsigned' : `was signed by the certificate SHA-256 ${changed.before.slice(0, 23)}…`;
    const secrets = changed.storedSecrets.length ? `; its stored secrets (${changed.storedSecrets.join(', ')}) are not given to this one unless --keep-secrets` : '';
    io.out(`  WARNING: signed by another publisher than the installed copy, which ${before}${secrets}`);
  }
  const unsigned = preview.unsignedUpdate;
  if (unsigned?.sameBundle) {
    const secrets = unsigned.storedSecrets.length ? `; its stored secrets (${unsigned.storedSecrets.join(', ')}) are given to this one only with --keep-secrets` : '';
    io.out(`  WARNING: neither this copy nor the installed one is signed, so nothing shows they come from the same maker${secrets}`);
  } else if (unsigned) {
    const secrets = unsigned.storedSecrets.length ? `; its stored secrets (${unsigned.storedSecrets.join(', ')}) are not given to this one` : '';
    io.out(`  WARNING: unsigned, and not the same bundle (name and author) as the installed copy${secrets}`);
  }
  io.out(`  runs (${preview.serverType}): ${preview.command.map((part) => (/[\s"'$]/.test(part) ? JSON.stringify(part) : part)).join(' ')}`);
  for (const { name, value } of preview.env) io.out(`    env ${name}=${value}`);
  io.out(`  tools it declares (${preview.tools.length}): ${preview.tools.map((t) => t.name).join(', ') || 'none'}`);
  if (preview.prompts.length) io.out(`  prompts it declares: ${preview.prompts.map((p) => p.name).join(', ')}`);
  for (const field of preview.userConfig) {
    const shown = field.sensitive ? (field.kept ? 'kept in the key store' : 'none') : JSON.stringify(field.previous ?? field.default ?? null);
    io.out(
      `  setting ${field.key} (${field.type}${field.multiple ? ', several' : ''}${field.required ? ', required' : ''}${field.sensitive ? ', sensitive: kept in the key store' : ''}): ${field.title}; now ${shown}`,
    );
  }
}

/** Has the field a value without asking: given, kept from before (a secret of another signer's copy only when kept by the flag), or a default. */
const answered = (field: BundleConfigField, values: BundleConfigValues, keptAnyway: readonly string[]) =>
  Object.hasOwn(values, field.key) || field.previous !== undefined || field.kept === true || keptAnyway.includes(field.key) || field.default !== undefined;

async function askMissing(io: CliIo, preview: BundlePreview, values: BundleConfigValues, keepSecrets: boolean): Promise<void> {
  const keptAnyway = keepSecrets ? secretsKeptIfAsked(preview) : [];
  for (const field of preview.userConfig) {
    if (!field.required || answered(field, values, keptAnyway) || !io.ask) continue;
    const question = `${field.title}${field.description ? ` (${field.description})` : ''}: `;
    const value = field.sensitive ? await readSecretFromStdin(question, io.stdin) : (await io.ask(question)).trim();
    if (value) values[field.key] = value;
  }
}

export async function installBundleCommand(
  cli: CliContext,
  source: string,
  opts: { yes?: boolean; config?: string[]; secretStdin?: string; keepSecrets?: boolean; allowHttp?: boolean; sha256?: string },
  command: Command,
): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const values: BundleConfigValues = pairsOf(opts.config ?? [], '--config');
  if (opts.secretStdin !== undefined) {
    if (Object.hasOwn(values, opts.secretStdin)) throw new UsageError(`${opts.secretStdin} is given by --config and --secret-stdin; give it once`);
    values[opts.secretStdin] = await readSecretFromStdin(`${opts.secretStdin}: `, io.stdin);
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-bundle-'));
  try {
    const download = { allowHttp: opts.allowHttp === true, ...(opts.sha256 !== undefined ? { sha256: opts.sha256 } : {}) };
    const file = /^https?:\/\//i.test(source) ? await installing(io, () => downloadBundle(source, scratch, download)) : source;
    if (opts.sha256 !== undefined && !options.json) io.out(`fetched ${source}: its SHA-256 is the ${opts.sha256} the catalog names`);
    await withStartedHost(options, async (host) => {
      const preview = await installing(io, () => host.plugins.previewBundle(file));
      if (!options.json) printPreview(io, preview);
      await askMissing(io, preview, values, opts.keepSecrets === true);
      let answer = true as boolean | 'no-terminal';
      const outcome = await installing(io, () =>
        host.plugins.installBundle(
          file,
          values,
          async (update) => {
            if (!options.json) printUpdate(io, update);
            answer = await confirmStep(io, `update ${update.pluginId} in place?`, opts.yes);
            return answer === true;
          },
          { keepSecrets: opts.keepSecrets === true },
        ),
      );
      await reportInstall(cli, host, options.json, source, outcome, answer, { bundle: preview });
    });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  cli.exitCode = 0;
}
