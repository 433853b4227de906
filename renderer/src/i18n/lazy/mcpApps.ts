/** MCP App views under a tool card (Chat and Playground), and messages apps post into a conversation. */
export default {
  zh: {
    'mcpApps.frameTitle': '{{app}} 的视图',
    'mcpApps.cannotShow': '无法显示这个工具的视图',
    'mcpApps.cannotShowPage': '无法显示这个应用的页面',
    'mcpApps.cspDropped': '视图请求的部分来源未被允许',
    'mcpApps.resultCut': '工具结果的一部分过大，未保存给视图；视图只收到其余部分',
    'mcpApps.openBeside': '在对话旁打开',
    'mcpApps.openLink.title': '{{app}} 想打开一个链接',
    'mcpApps.openLink.open': '打开',
    'mcpApps.fromApp': '来自应用 {{app}}',
    'mcpApps.contextFrom': '来自应用 {{app}} 的上下文',
  },
  en: {
    'mcpApps.frameTitle': 'View of {{app}}',
    'mcpApps.cannotShow': "This tool's view cannot be shown",
    'mcpApps.cannotShowPage': "This app's page cannot be shown",
    'mcpApps.cspDropped': 'Some origins the view asked for were not allowed',
    'mcpApps.resultCut': "Part of the tool's result was too large to keep for the view; the view got the rest",
    'mcpApps.openBeside': 'Open beside the chat',
    'mcpApps.openLink.title': '{{app}} wants to open a link',
    'mcpApps.openLink.open': 'Open',
    'mcpApps.fromApp': 'From the app {{app}}',
    'mcpApps.contextFrom': 'Context from the app {{app}}',
  },
};
