import { Skeleton } from 'antd';
import { lazyPart } from '../../shell/lazyPart';
export { SidePanelButton } from './SidePanelButton';
import { useSidePanel } from './sidePanelState';
import { useFollowAgentCanvas } from './useFollowAgentCanvas';

// The panel (and the app frames it shows, the MCP App bridge among them: ~60 KB gzip) loads when a panel is open.
const SidePanel = lazyPart(
  () => import('./SidePanel').then((m) => m.default),
  <aside className="side-panel" data-testid="side-panel-loading">
    <Skeleton active />
  </aside>,
);

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
