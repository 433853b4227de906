import { useHostEvent } from '../../api/hooks';
import { CANVAS_APP, sidePanels } from './sidePanelState';

/**
 * A conversation's agent created or changed a Canvas instance: that
 * conversation's side panel opens on it (the newest wins), whether or not
 * the conversation is the one on screen, so switching to it shows the panel.
 * Only an agent's successful calls: the Canvas page's own writes (the user's
 * form) and refused patches change nothing to follow.
 */
export function useFollowAgentCanvas(): void {
  useHostEvent('uiApp.toolCalled', (event) => {
    if (event.pluginId !== CANVAS_APP.pluginId || event.appId !== CANVAS_APP.appId || !event.ok) return;
    if (!event.agentId || !event.conversationId || !event.instanceId) return;
    sidePanels.open(event.conversationId, { kind: 'canvas', instanceId: event.instanceId });
  });
}
