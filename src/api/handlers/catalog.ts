import type { HandlerContext, Handlers } from './types.js';

/** The Catalog page: thin, every rule is the core's (host.catalog), the same operations `chatos catalog` runs. */
export function catalogHandlers({ host }: HandlerContext): Handlers<'catalog.search' | 'catalog.show' | 'catalog.add'> {
  return {
    'catalog.search': (query) => host.catalog.search(query),
    'catalog.show': async ({ name, registry }) => ({ entry: await host.catalog.show(name, registry) }),
    // The server is registered in the admin DB before the page says it is added.
    'catalog.add': async ({ request }) => {
      const server = await host.catalog.add(request);
      await host.save();
      return { server };
    },
  };
}
