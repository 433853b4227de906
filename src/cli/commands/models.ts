import type { Command } from 'commander';
import { lazyAction } from '../lazyAction.js';
import { MODEL_TEST_TIMEOUT_MS } from '../../core/facades/limits.js';
import { MODEL_PRESET_LIST } from '../../shared/modelPresetList.js';
import type { CliContext } from '../output.js';

const actions = () => import('../actions/models.js');

export function registerModels(program: Command, cli: CliContext): void {
  const models = program.command('models').description('model entries: which API, where, which model, and where its key comes from');

  models
    .command('list')
    .description('every model entry, with where its key comes from (never the key)')
    .action(lazyAction(cli, actions, (a) => a.list));

  models
    .command('presets')
    .description('the presets --preset accepts: API kind, base URL, a model to start from, the usual key variable')
    .action(lazyAction(cli, actions, (a) => a.presets));

  models
    .command('add')
    .description('add a model entry; the key comes from --api-key-stdin (stored in a file only you can read) or --api-key-env VAR, never from an argument')
    .argument('<id>', 'the entry\'s id (letters, digits, ".", "_", "-")')
    .option('--api <kind>', 'openai (chat completions) | openai-responses | anthropic')
    .option('--base-url <url>', 'e.g. https://api.openai.com/v1, http://localhost:11434/v1')
    .option('--model <name>', "the provider's model name")
    .option('--name <name>', 'a display name')
    .option('--api-key-env <var>', 'read the key from this environment variable when a request is made')
    .option('--api-key-stdin', 'read the key from stdin and store it')
    .option('--vision', 'the model accepts images')
    .option('--temperature <t>', 'sampling temperature, 0 to 2')
    .option('--max-tokens <n>', 'most tokens an answer may have')
    .option('--context-window <n>', "the model's context window in tokens")
    .option('--max-tools <n>', 'most tools a request may carry (some providers cap it)')
    .option('--kind <kind>', 'chat or embedding (for knowledge bases); default: guessed from the model name (known embedding families)')
    .option('--reasoning', 'a reasoning model: sent max_completion_tokens and no temperature (o-series, GPT-5, DeepSeek thinking; Claude gets extended thinking); known families are found by name')
    .option('--no-reasoning', 'not a reasoning model, whatever its name suggests')
    .option('--reasoning-effort <effort>', 'minimal | low | medium | high')
    .option('--no-tools', 'the model cannot call tools: it is offered none')
    .option('--preset <id>', `start from a preset: ${MODEL_PRESET_LIST.map((p) => p.id).join(', ')}`)
    .action(lazyAction(cli, actions, (a) => a.add));

  models
    .command('remove')
    .description('remove a model entry and its stored key')
    .argument('<id>', 'model id')
    .action(lazyAction(cli, actions, (a) => a.remove));

  models
    .command('test')
    .description('send one tiny streamed request; says exactly what failed (DNS, TLS, refused, 401 bad key, 404 unknown model, timeout…)')
    .argument('<id>', 'model id')
    .option('--timeout <seconds>', `how long to wait for the provider (default ${MODEL_TEST_TIMEOUT_MS / 1000})`)
    .action(lazyAction(cli, actions, (a) => a.test));

  models
    .command('available')
    .description("the model names the entry's provider offers (its /models, Anthropic's models list, or Ollama's tags)")
    .argument('<id>', 'model id')
    .action(lazyAction(cli, actions, (a) => a.available));
}
