/** Slash commands: MCP prompts of the agent's servers, picked with / in the composer (docs/using/slash-commands.md). */
export default {
  zh: {
    'slashPrompts.menu': '提示词',
    'slashPrompts.none': '没有提示词',
    'slashPrompts.noMatch': '无匹配',
    'slashPrompts.requiredMissing': '请填写“{{name}}”',
    'slashPrompts.send': '发送提示词',
  },
  en: {
    'slashPrompts.menu': 'Prompts',
    'slashPrompts.none': 'No prompts',
    'slashPrompts.noMatch': 'No match',
    'slashPrompts.requiredMissing': 'Fill in "{{name}}"',
    'slashPrompts.send': 'Send prompt',
  },
};
