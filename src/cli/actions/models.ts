import type { Command } from 'commander';
import { ModelError, ProviderError, SecretError } from '../../core/facades/errors.js';
import { MODEL_TEST_TIMEOUT_MS } from '../../core/facades/limits.js';
import type { Host } from '../../core/host.js';
import { MODEL_PRESETS } from '../../shared/modelPresets.js';
import { describeKeyStore, type ModelView } from '../../shared/models.js';
import { ownValue } from '../../shared/ownKeys.js';
import { commit, globalOptions, withReadOnlyHost, withStartedHost } from '../globalOptions.js';
import { entryFromOptions, OPTION_OF_FIELD, type AddOptions } from '../modelOptions.js';
import { printJson, UsageError, UserError, type CliContext, type CliIo } from '../output.js';
import { describeProviderFailure } from '../providerFailureText.js';
import { readSecretFromStdin } from '../readSecret.js';

/** Model and key errors as the CLI reports them: invalid options are bad usage (2), the rest a problem to fix (1). */
async function modelStep<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ModelError && error.code === 'MODEL_INVALID' && error.fields.length) {
      throw new UsageError(error.fields.map((f) => `${ownValue(OPTION_OF_FIELD, f.path) ?? f.path}: ${f.message}`).join('; '));
    }
    if (error instanceof ModelError || error instanceof SecretError) throw new UserError(error.message, error.hint);
    throw error;
  }
}

function keyText(model: ModelView): string {
  const { keyState } = model;
  switch (keyState.source) {
    case 'none':
      return 'no key';
    case 'env':
      return `key from $${keyState.env}${keyState.set ? '' : ' (not set here)'}`;
    case 'stored':
      return keyState.problem ? `stored key unreadable: ${keyState.problem}` : keyState.set ? 'key stored' : 'key missing';
  }
}

function printModel(io: CliIo, model: ModelView): void {
  const extras = [
    model.kind === 'embedding' ? 'embedding' : '',
    model.reasoning ? `reasoning${model.reasoningEffort ? ` (${model.reasoningEffort})` : ''}` : '',
    model.tools === false ? 'no tools' : '',
    model.vision ? 'vision' : '',
    model.temperature !== undefined ? `temperature ${model.temperature}` : '',
    model.maxTokens !== undefined ? `max tokens ${model.maxTokens}` : '',
    model.rejectedParams?.length ? `the provider rejects ${model.rejectedParams.join(' and ')} for it` : '',
  ].filter(Boolean);
  io.out(`  ${model.id}  ${model.name}  [${model.api}] ${model.model} @ ${model.baseUrl}  ${keyText(model)}${extras.length ? `  (${extras.join(', ')})` : ''}`);
}

/** Agents whose modelId names this model (they lose it when it goes). */
const agentsUsing = (host: Host, id: string) =>
  host.agents
    .list()
    .filter((a) => a.modelId === id)
    .map((a) => a.id);

export async function list(cli: CliContext, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await withReadOnlyHost(options, async (host) => {
    const list = await host.models.list();
    if (options.json) printJson(io, { models: list, keyStore: host.models.keyStore });
    else if (!list.length) io.out('no models yet; add one: chatos models add ID --preset openai (chatos models presets lists them)');
    else {
      io.out(`models (${list.length}); stored keys are kept in ${describeKeyStore(host.models.keyStore)}:`);
      for (const model of list) printModel(io, model);
    }
  });
  cli.exitCode = 0;
}

export async function presets(cli: CliContext, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  if (options.json) printJson(io, { presets: MODEL_PRESETS });
  else for (const p of MODEL_PRESETS) io.out(`  ${p.id}  ${p.name}  [${p.api}] ${p.baseUrl || '(your URL)'}${p.model ? `  model ${p.model}` : ''}  ${p.needsKey ? `key $${p.keyEnv}` : 'no key'}`);
  cli.exitCode = 0;
}

export async function add(cli: CliContext, id: string, opts: AddOptions, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const input = entryFromOptions(id, opts);
  // Read before the host opens: a wait on the terminal holds no lock.
  const apiKey = opts.apiKeyStdin ? await readSecretFromStdin(`API key for ${id} (not shown): `, io.stdin) : undefined;
  await withStartedHost(options, async (host) => {
    const entry = await modelStep(() => host.models.create(input, apiKey === undefined ? {} : { apiKey }));
    await commit(host);
    const view = await host.models.view(entry);
    if (options.json) printJson(io, { model: view });
    else {
      io.out(`added model ${entry.id}: [${entry.api}] ${entry.model} @ ${entry.baseUrl}`);
      // What was guessed from the name is said, with how to say otherwise.
      if (input.kind === undefined) io.out(`kind: ${entry.kind} (guessed from the model name; --kind ${entry.kind === 'chat' ? 'embedding' : 'chat'} if it is not)`);
      if (input.reasoning === undefined && entry.reasoning)
        io.out(`reasoning: on (${entry.model} is a known reasoning model: sent max_completion_tokens, no temperature; --no-reasoning if it is not)`);
      io.out(entry.key.kind === 'stored' ? `its key is stored in ${describeKeyStore(host.models.keyStore)}` : keyText(view));
      io.out(`try it: chatos models test ${entry.id}`);
    }
  });
  cli.exitCode = 0;
}

export async function remove(cli: CliContext, id: string, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await withStartedHost(options, async (host) => {
    const entry = await modelStep(async () => host.models.require(id));
    await modelStep(() => host.models.remove(id));
    await commit(host);
    const using = agentsUsing(host, id);
    if (options.json) printJson(io, { removed: id, agentsUsingIt: using });
    else io.out(`removed model ${id}${entry.key.kind === 'stored' ? ' and its stored key' : ''}`);
    if (using.length) io.err(`warning: these agents name model ${id} and have no model now: ${using.join(', ')}`);
  });
  cli.exitCode = 0;
}

export async function test(cli: CliContext, id: string, opts: { timeout?: string }, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const seconds = opts.timeout === undefined ? MODEL_TEST_TIMEOUT_MS / 1000 : Number(opts.timeout);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`--timeout must be a positive number of seconds, not "${opts.timeout}"`);
  const result = await withReadOnlyHost(options, async (host) => {
    const entry = await modelStep(async () => host.models.require(id));
    const outcome = await modelStep(() => host.models.test(id, { timeoutMs: seconds * 1000 }));
    return { entry, outcome };
  });
  const { entry, outcome } = result;
  if (options.json) printJson(io, { model: id, ...outcome });
  if (outcome.ok) {
    if (!options.json && outcome.dimensions !== undefined) io.out(`ok: ${id} (${entry.model} at ${entry.baseUrl}) embedded a text in ${outcome.ms} ms: vectors of ${outcome.dimensions} numbers`);
    else if (!options.json) {
      if (outcome.reasoning) io.err(`  (thought: ${JSON.stringify(outcome.reasoning.trim().slice(0, 200))})`);
      io.out(`ok: ${id} (${entry.model} at ${entry.baseUrl}) answered in ${outcome.ms} ms: ${JSON.stringify(outcome.text.trim().slice(0, 200))}`);
    }
    cli.exitCode = 0;
    return;
  }
  const words = describeProviderFailure(outcome.error, entry);
  io.err(`error: ${id}: ${words.message}\n    fix: ${words.hint}`);
  cli.exitCode = 1;
}

export async function available(cli: CliContext, id: string, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const catalog = await withReadOnlyHost(options, async (host) => {
    const entry = await modelStep(async () => host.models.require(id));
    try {
      return await modelStep(() => host.models.available({ id }));
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      const words = describeProviderFailure(error.toJSON(), entry);
      throw new UserError(`${id}: the provider did not list its models: ${words.message}`, words.hint);
    }
  });
  if (options.json) printJson(io, catalog);
  else if (!catalog.names.length) io.out('the provider lists no models; give the name yourself (chatos models add … --model NAME)');
  else for (const name of catalog.names) io.out(name);
  cli.exitCode = 0;
}
