/** Long tool calls: progress and Cancel (Playground and Chat), and what a call's end means in words. */
export default {
  zh: {
    'calls.cancel': '取消调用',
    'calls.progress.waiting': '正在运行，服务器尚未报告进度…',
    'calls.progress.count': '已完成 {{count}} 步',
    'calls.cancelled': '你取消了这次调用；服务器已被告知停止。',
    'calls.cancelFailed': '无法取消：这次调用已经结束。',
  },
  en: {
    'calls.cancel': 'Cancel call',
    'calls.progress.waiting': 'Running; the server has not reported progress yet…',
    'calls.progress.count': '{{count}} steps done',
    'calls.cancelled': 'You cancelled this call; the server was told to stop.',
    'calls.cancelFailed': 'Could not cancel: the call had already ended.',
  },
};
