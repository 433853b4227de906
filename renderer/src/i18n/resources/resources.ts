export default {
  zh: {
    'resources.mention.button': '用 @ 附加一个 MCP 资源',
  },
  en: {
    'resources.mention.button': 'Attach an MCP resource with @',
  },
};
