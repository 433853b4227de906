import SidePanel from './SidePanel';
export { SidePanelButton } from './SidePanelButton';
import { useSidePanel } from './sidePanelState';
import { useFollowAgentCanvas } from './useFollowAgentCanvas';

/**
 * The Chat page's side-panel part, loaded after the page (the Chat page
 * stays within its JS budget): follows every conversation's agent on the
 * Canvas, and shows the open conversation's panel when it is open.
 */
export default function SidePanelHost({ conversationId }: { conversationId: string | undefined }) {
  useFollowAgentCanvas();
  const { state, close } = useSidePanel(conversationId ?? '');
  if (!conversationId || !state.open) return null;
  return <SidePanel content={state.content} conversationId={conversationId} onClose={close} />;
}
