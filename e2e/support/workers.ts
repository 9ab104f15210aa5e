/**
 * How many spec files run at once, each worker against an app of its own. Two on two cores: a browser test
 * spends much of its time waiting on the page, and the apps share nothing, so one file's clock moves, demo
 * users and rate limits never meet another's. `E2E_WORKERS=1` runs the files one at a time on one app.
 */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2) || 1);
