/**
 * Whether a test that needs a tool or service of the machine (PostgreSQL on 5432, nats-server, HAProxy, promtool,
 * systemd-analyze, loop mounts) may skip without it. On a developer's machine it may, with a warning; in CI
 * (`.ci/run` sets `REQUIRE_TEST_SERVICES=1` after installing them) a missing one fails the run instead, so that
 * no test is skipped there unnoticed.
 * @returns true when the test should be skipped.
 */
export function missing(available: unknown, what: string): boolean {
  if (available) return false;
  if (process.env.REQUIRE_TEST_SERVICES === '1')
    throw new Error(`${what} is required here (REQUIRE_TEST_SERVICES=1) but not available`);
  console.warn(`skipping: ${what} is not available`);
  return true;
}
