import type { Page, Request } from 'playwright-core';
import { pollUntil } from './poll.ts';

/** Quiet frames in a row that count as settled: a transition that starts a frame after a click is not missed. */
const QUIET_FRAMES = 3;

/**
 * Waits until no finite CSS animation or transition has run in the page for {@link QUIET_FRAMES} frames in a row
 * (a spinner's endless animation does not count): a tab panel, a sheet or an indicator that has just moved is
 * drawn where it stays, so axe measures colours as the user sees them, not halfway through a fade.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { e2eQuietFrames: number }).e2eQuietFrames = 0;
  });
  await page.waitForFunction(
    (frames) => {
      const running = document
        .getAnimations()
        .some((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity);
      const w = window as unknown as { e2eQuietFrames: number };
      w.e2eQuietFrames = running ? 0 : w.e2eQuietFrames + 1;
      return w.e2eQuietFrames >= frames;
    },
    QUIET_FRAMES,
    { polling: 'raf' },
  );
}

/**
 * Runs `action` (a click, a navigation) and waits until the page is settled after it: every HTTP request the page
 * started meanwhile or after it has its answer (or failed), and no animation runs ({@link animationsDone}). A
 * request started by what an answer drew counts too: the page is settled only when quiet frames pass with none
 * under way. What the page would do on its own after an action (a redirect, a refused call, a toast) has then
 * happened, without guessing a time for it.
 */
export async function settle(page: Page, action: () => Promise<unknown>): Promise<void> {
  const pending = new Set<Request>();
  const started = (request: Request) => pending.add(request);
  const ended = (request: Request) => pending.delete(request);
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  try {
    await action();
    await pollUntil(
      async () => {
        if (pending.size === 0) await animationsDone(page);
        return [...pending].map((r) => r.url());
      },
      (urls) => urls.length === 0,
      { timeout: 20_000, interval: 50, message: 'requests still under way' },
    );
  } finally {
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
  }
}
