import { fileURLToPath } from 'node:url';

/**
 * The folder `npm run build:web` writes the built web app into (absolute, with a trailing slash): for the tests that
 * serve or read the build, so that no path into this package is written outside it.
 */
export const WEB_DIST = fileURLToPath(new URL('./dist/', import.meta.url));
