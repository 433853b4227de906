// The Canvas page's words, in the user's language (the host tells the page: zh or en).
export const TEXT = {
  en: {
    dateLocale: 'en-GB',
    title: 'Canvas',
    instances: 'Instances',
    history: 'History',
    live: 'Live',
    loading: 'Loading…',
    noInstances: 'No instances yet. An agent creates them with patch_ui_state.',
    noBlocks: 'This instance has no blocks yet.',
    noHistory: 'No changes recorded yet.',
    counts: (blocks, actions) => `${blocks} block${blocks === 1 ? '' : 's'} · ${actions} action${actions === 1 ? '' : 's'}`,
    revision: (n) => `rev ${n}`,
    step: (current, total) => `Step ${current} of ${total}`,
    status: { idle: 'Idle', submitted: 'Submitted' },
    required: 'Required',
    unsaved: (n) => `${n} unsaved change${n === 1 ? '' : 's'}: click an action to send`,
    sending: 'Sending…',
    choose: 'Choose…',
    who: {
      agent: (c) => `Agent ${c.agentId ?? ''}`.trim(),
      page: () => 'Page',
      app: (c) => `App ${c.appId ?? ''}`.trim(),
      client: (c) => (c.name ? `Client ${c.name}` : 'MCP client'),
    },
    conversation: 'Conversation',
    kind: { patch: 'patch', create: 'created', delete: 'deleted' },
    ok: (revision) => `✓ rev ${revision}`,
    lastChange: (who, ago) => `${who}, ${ago}`,
    ago: (seconds) => (seconds < 5 ? 'just now' : seconds < 60 ? `${seconds} s ago` : seconds < 3600 ? `${Math.floor(seconds / 60)} min ago` : `${Math.floor(seconds / 3600)} h ago`),
    failed: (message) => `Could not reach the canvas: ${message}`,
  },
  zh: {
    dateLocale: 'zh-CN',
    title: '画布',
    instances: '实例',
    history: '历史',
    live: '实时',
    loading: '加载中…',
    noInstances: '还没有实例。智能体可用 patch_ui_state 创建。',
    noBlocks: '这个实例还没有区块。',
    noHistory: '还没有修改记录。',
    counts: (blocks, actions) => `${blocks} 个区块 · ${actions} 个操作`,
    revision: (n) => `版本 ${n}`,
    step: (current, total) => `第 ${current} / ${total} 步`,
    status: { idle: '空闲', submitted: '已提交' },
    required: '必填',
    unsaved: (n) => `${n} 处未发送的修改：点击按钮发送`,
    sending: '发送中…',
    choose: '请选择…',
    who: {
      agent: (c) => `智能体 ${c.agentId ?? ''}`.trim(),
      page: () => '页面',
      app: (c) => `应用 ${c.appId ?? ''}`.trim(),
      client: (c) => (c.name ? `客户端 ${c.name}` : 'MCP 客户端'),
    },
    conversation: '会话',
    kind: { patch: '补丁', create: '创建', delete: '删除' },
    ok: (revision) => `✓ 版本 ${revision}`,
    lastChange: (who, ago) => `${who}，${ago}`,
    ago: (seconds) => (seconds < 5 ? '刚刚' : seconds < 60 ? `${seconds} 秒前` : seconds < 3600 ? `${Math.floor(seconds / 60)} 分钟前` : `${Math.floor(seconds / 3600)} 小时前`),
    failed: (message) => `无法连接画布：${message}`,
  },
};

export const textFor = (locale) => TEXT[locale] ?? TEXT.en;

/** Who sent a call, in words. */
export function whoOf(t, caller) {
  const say = t.who[caller?.kind] ?? t.who.client;
  return say(caller ?? {});
}
