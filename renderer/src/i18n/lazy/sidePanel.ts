// Short on purpose: these load with the Chat page, which is at its JS budget.
export default {
  zh: {
    'sidePanel.menu': '侧边栏',
    'sidePanel.popOut': '完整页面',
    'sidePanel.close': '关闭',
    'sidePanel.viewGone': '请在工具卡片上重新打开这个视图。',
  },
  en: {
    'sidePanel.menu': 'Side panel',
    'sidePanel.popOut': 'Full page',
    'sidePanel.close': 'Close',
    'sidePanel.viewGone': 'Open this view again from its tool card.',
  },
};
