// Once before any suite: compile dist/, which the process-level tests start (`npm start`'s entry,
// the standalone worker). Building here, not in the suites, keeps two suites from rebuilding it
// under each other's feet.
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

module.exports = async () => {
  // tools/test.mjs builds once before its jest runs (two passes, two phases each) and says so here.
  if (process.env.DTS_DIST_BUILT === '1') return;
  execFileSync(process.execPath, [join(__dirname, '..', 'build.mjs')], { stdio: 'ignore' });
};
