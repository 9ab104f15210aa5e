/**
 * How many spec files run at once, each worker against an app of its own (support/suite-app.ts), so one file's
 * clock moves, demo users and rate limits never meet another's. One by default: on two cores a browser test keeps
 * about one core busy (the app, Chromium and the test), and two at once were no faster (8 files: 74 s alone, 71 s
 * two at a time) while a live-trading test missed its deadline. `E2E_WORKERS=N` on a machine with more cores.
 */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 1) || 1);
