import { Alert } from 'antd';
import type { CSSProperties, Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { START_WITHIN_MS, type ViewStart } from './viewStart';
import '../../i18n/load/mcpApps';

/**
 * The sandbox flags of a view's proxy frame, as the host serves them
 * (VIEW_SANDBOX in src/core/mcpApps/viewCsp.ts): the proxy and the view
 * share an origin of their own, never the host's; scripts and forms a
 * script handles; no popups, no top navigation.
 */
const SANDBOX = 'allow-scripts allow-same-origin allow-forms';

/**
 * The frame of an MCP App view (docs/rules/mcp-apps.md#the-frame): its
 * sandbox proxy, at the view's site, which frames the view. Until the view
 * starts, an error it threw or its silence is said in its place; the frame
 * stays (hidden) so a view that starts late is shown then.
 */
export function SandboxFrame(props: { ref: Ref<HTMLIFrameElement>; src: string; title: string; start: ViewStart; style: CSSProperties }) {
  const { t } = useTranslation();
  const { start } = props;
  const stuck = start.kind === 'failed' || start.kind === 'silent';
  return (
    <>
      {start.kind === 'failed' && <Alert type="warning" showIcon data-testid="mcp-app-not-started" message={t('mcpApps.viewFailed')} description={start.message} />}
      {start.kind === 'silent' && (
        <Alert
          type="warning"
          showIcon
          data-testid="mcp-app-not-started"
          message={t('mcpApps.viewSilent', { seconds: START_WITHIN_MS / 1000 })}
          description={t(start.sandboxUp ? 'mcpApps.viewSilentHint' : 'mcpApps.sandboxSilentHint')}
        />
      )}
      <iframe
        ref={props.ref}
        src={props.src}
        title={props.title}
        sandbox={SANDBOX}
        referrerPolicy="no-referrer"
        data-testid="mcp-app-iframe"
        data-start={start.kind}
        style={{ ...props.style, display: stuck ? 'none' : 'block' }}
      />
    </>
  );
}
