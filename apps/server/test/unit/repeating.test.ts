import { afterEach, describe, expect, it, vi } from 'vitest';
import { Repeating } from '../../src/jobs/repeating.ts';

describe('a repeating background task', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits the interval after each run ends, goes on after a failure, and stops', async () => {
    vi.useFakeTimers();
    const starts: number[] = [];
    const errors: unknown[] = [];
    let finish: (() => void) | undefined;
    const task = new Repeating(
      1000,
      () => {
        starts.push(Date.now());
        if (starts.length === 2) return Promise.reject(new Error('second run fails'));
        return new Promise<void>((resolve) => {
          finish = resolve;
        });
      },
      (err) => errors.push(err),
    );
    const t0 = Date.now();
    task.start(true);
    expect(starts).toEqual([t0]);
    // A run that has not ended holds the next one back, however long it takes.
    await vi.advanceTimersByTimeAsync(5000);
    expect(starts).toHaveLength(1);
    finish?.();
    await vi.advanceTimersByTimeAsync(999);
    expect(starts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(starts).toEqual([t0, t0 + 6000]);
    // The failed second run is reported, and the third still comes an interval later.
    await vi.advanceTimersByTimeAsync(1000);
    expect(errors).toHaveLength(1);
    expect(starts).toEqual([t0, t0 + 6000, t0 + 7000]);
    task.stop();
    finish?.();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(starts).toHaveLength(3);
  });

  it('starts after one interval unless asked to run at once, and never once stopped', async () => {
    vi.useFakeTimers();
    let runs = 0;
    const task = new Repeating(500, async () => {
      runs++;
    });
    task.start();
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(500);
    expect(runs).toBe(1);
    task.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(runs).toBe(1);
    const stopped = new Repeating(500, async () => {
      runs++;
    });
    stopped.stop();
    stopped.start(true);
    expect(runs).toBe(1);
  });
});
