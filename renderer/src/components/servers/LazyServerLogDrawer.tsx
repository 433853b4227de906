import { lazyPart, useOpenedOnce } from '../../shell/lazyPart';

// The log (and the code view it shows lines in) loads with its first open: the servers are what a page shows first.
const ServerLogDrawer = lazyPart(() => import('./ServerLogDrawer').then((m) => m.ServerLogDrawer), null);

/** A server's log drawer, mounted from its first open on (see ServerLogDrawer). */
export function LazyServerLogDrawer(props: { serverId: string | undefined; onClose(): void }) {
  return useOpenedOnce(props.serverId !== undefined) ? <ServerLogDrawer {...props} /> : null;
}
