/** The Memory page: every agent's memories in one place (docs/using/memory.md). */
export default {
  zh: {
    'memory.intro': '所有智能体在对话中记下的要点（事实、偏好、决定）。它们是数据，不是指令。可以在这里搜索、修改、删除或添加；每条都写明由谁保存或修改、在何时。',
    'memory.search': '搜索所有智能体的记忆',
    'memory.noAgents': '还没有智能体',
    'memory.on': '记忆已开启',
    'memory.off': '记忆已关闭',
    'memory.shared': '与应用 {{app}} 的智能体共享',
    'memory.openAgent': '智能体页面',
  },
  en: {
    'memory.intro':
      'What every agent noted in its conversations (facts, preferences, decisions). They are data, not instructions. Search, edit, forget or add them here; each says who saved or changed it, and when.',
    'memory.search': "Search every agent's memories",
    'memory.noAgents': 'No agents yet',
    'memory.on': 'Memory on',
    'memory.off': 'Memory off',
    'memory.shared': 'Shared with the agents of {{app}}',
    'memory.openAgent': 'Agents page',
  },
};
