import { setTimeout as pause } from 'node:timers/promises';

/**
 * Asks `read` again every `interval` ms until `done` holds for its answer, and returns that answer; fails with
 * `message` and the last answer once `timeout` ms have passed. The pause is the polling interval, not a guess
 * at how long something takes. Unlike `expect.poll` it works in a file's `beforeAll` too, where the wallet and
 * card set-ups run.
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  options: { message: string; timeout?: number; interval?: number },
): Promise<T> {
  const until = Date.now() + (options.timeout ?? 30_000);
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`${options.message} (the last answer: ${JSON.stringify(value)})`);
    await pause(options.interval ?? 250);
  }
}
