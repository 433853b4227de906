import type { AppSource } from '../../../../src/shared/chat';

/** The Canvas as an app (plugins/canvas/plugin.json). */
const CANVAS = { pluginId: 'chatos.canvas', appId: 'canvas', name: 'Canvas' } as const;

/**
 * Who a frame's `conversation.post` message is from (docs/rules/app-messages.md#whose-message-it-is):
 * named from the frame's binding (its plugin and app), never from what the page says about itself. For
 * the Canvas the source is the instance: the one the message's state names (the built-in Canvas page
 * writes it), else the one the shell focused.
 */
export function appMessageSource(pluginId: string, appId: string, state: unknown, focus: string | undefined): AppSource {
  if (pluginId === CANVAS.pluginId && appId === CANVAS.appId) {
    const named = typeof state === 'object' && state !== null && Object.hasOwn(state, 'instance_id') ? (state as { instance_id: unknown }).instance_id : undefined;
    const instance = typeof named === 'string' && named.length > 0 && named.length <= 200 ? named : focus;
    if (instance) return { kind: 'canvas', id: instance, name: CANVAS.name };
  }
  const id = `${pluginId}.${appId}`.slice(0, 200);
  return { kind: 'ui-app', id, name: id.slice(0, 100) };
}
