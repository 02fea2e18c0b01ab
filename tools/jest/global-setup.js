// Once before any suite: compile dist/, which the process-level tests start (`npm start`'s entry,
// the standalone worker). Building here, not in the suites, keeps two suites from rebuilding it
// under each other's feet.
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

module.exports = async () => {
  execFileSync(process.execPath, [join(__dirname, '..', 'build.mjs')], { stdio: 'ignore' });
};
