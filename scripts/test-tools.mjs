// `npm test` starts here: the end-to-end and scale-out tests need four programs from Debian that npm cannot
// install. When one is missing, stop at once with one line that names them, instead of a wall of failed tests.
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** True when `file` exists and may be run. */
function runnable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** True when `name` is a program on the PATH. */
function onPath(name) {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && runnable(path.join(dir, name)));
}

const needed = [
  // The browser tests (playwright-core drives Debian's headless shell, or the full Chromium when only that is here;
  // CHROMIUM_PATH names another).
  {
    pkg: 'chromium-headless-shell',
    found: [
      process.env.CHROMIUM_PATH,
      '/usr/lib/chromium/chromium-headless-shell',
      '/usr/lib/chromium/chromium',
      '/usr/bin/chromium',
    ].some((p) => p && runnable(p)),
  },
  // The two-factor tests check our TOTP codes against an implementation we did not write.
  { pkg: 'oathtool', found: onPath('oathtool') },
  // The scale-out tests start their own nats-server with JetStream.
  { pkg: 'nats-server', found: ['/usr/sbin/nats-server', '/usr/bin/nats-server'].some(runnable) },
  // The scale-out tests put HAProxy in front of the api processes.
  { pkg: 'haproxy', found: ['/usr/sbin/haproxy', '/usr/bin/haproxy'].some(runnable) },
];

const missing = needed.filter((n) => !n.found).map((n) => n.pkg);
if (missing.length > 0) {
  console.error(
    `npm test needs ${missing.join(', ')} (Debian packages), not found here: apt-get install -y ${missing.join(' ')}`,
  );
  process.exit(1);
}
