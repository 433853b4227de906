/** Long tool calls: progress and Cancel (Playground and Chat), and what a call's end means in words. */
export default {
  zh: {
    'calls.cancel': '取消调用',
    'calls.progress.waiting': '正在运行，服务器尚未报告进度…',
    'calls.progress.count_one': '已完成 {{count}} 步',
    'calls.progress.count_other': '已完成 {{count}} 步',
    'calls.cancelled': '你取消了这次调用；服务器已被告知停止。',
    'calls.cancelFailed': '无法取消：这次调用已经结束。',
    'calls.notRun.declined': '你拒绝了这次调用；工具没有运行。',
    'calls.notRun.expired': '没有人及时确认；工具没有运行。',
    'calls.notRun.chat': '你拒绝了（或没有人及时确认）；工具没有运行。',
    'calls.leaseNote': '这个会话现在有自己的服务器实例（保存其状态）。点击“新会话”即可释放。',
  },
  en: {
    'calls.cancel': 'Cancel call',
    'calls.progress.waiting': 'Running; the server has not reported progress yet…',
    'calls.progress.count_one': '{{count}} step done',
    'calls.progress.count_other': '{{count}} steps done',
    'calls.cancelled': 'You cancelled this call; the server was told to stop.',
    'calls.cancelFailed': 'Could not cancel: the call had already ended.',
    'calls.notRun.declined': 'You declined; the tool did not run.',
    'calls.notRun.expired': 'No one confirmed in time; the tool did not run.',
    'calls.notRun.chat': 'You declined (or no one confirmed in time); the tool did not run.',
    'calls.leaseNote': 'This conversation now has its own instance of a server that keeps state; "New conversation" releases it.',
  },
};
