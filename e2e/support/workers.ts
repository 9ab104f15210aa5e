import { availableParallelism } from 'node:os';

/**
 * How many spec files run at once, each worker against an app of its own (support/suite-app.ts), so one file's
 * clock moves, demo users and rate limits never meet another's. One per core by default: a browser test waits on
 * the app and on Chromium's processes for much of its time (one at a time left a third of two cores idle), and
 * on two cores two at once took the tier from 589 s to 436 s with the full browser, 350 s with the headless shell
 * (support/browser.ts). `E2E_WORKERS=N` to choose.
 */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? availableParallelism()) || 1);
