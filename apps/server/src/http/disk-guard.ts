import { statfs } from 'node:fs/promises';
import { API, ERRORS } from '@exchange/shared';
import type { FastifyInstance, preHandlerHookHandler, RouteOptions } from 'fastify';
import { AppError } from './errors.ts';

/** How often the free space is read: a system call, cheap, off every request's path. */
const CHECK_EVERY_MS = 5_000;

/**
 * The requests that add money movements, refused while the disk is low: new orders, swaps, withdrawals and card
 * top-ups. Everything else (reads, cancels, logins) goes on: a cancel frees funds, and an operator needs the app.
 */
export const DISK_GUARDED_ROUTES: ReadonlySet<string> = new Set(
  [
    '/market/orders',
    '/account/swaps',
    '/account/withdraws',
    '/account/fiats/withdraws',
    '/account/card_topup',
  ].map((route) => `POST ${API.peatio}${route}`),
);

/** Reads the free bytes of the file system holding `dir` (replaceable in tests). */
export type FreeSpace = (dir: string) => Promise<number>;

const freeSpace: FreeSpace = async (dir) => {
  const stats = await statfs(dir);
  return stats.bavail * stats.bsize;
};

/**
 * Watches the free space of the data folder. Below `minFreeBytes` new orders and withdrawals are refused with 503
 * `server.disk_low` (the database needs room to commit them; a full disk would stop it), and the operator is told
 * once in the log; above it again, they are taken again.
 */
export class DiskGuard {
  private timer: NodeJS.Timeout | undefined;
  private lowNow = false;
  /** The free bytes last read, for the metrics (undefined before the first read or when it failed). */
  freeBytes: number | undefined;

  constructor(
    private readonly dir: string,
    private readonly minFreeBytes: number,
    private readonly log: { warn(message: string): void; info(message: string): void },
    private readonly read: FreeSpace = freeSpace,
  ) {}

  /** True while the free space is below the threshold. */
  get low(): boolean {
    return this.lowNow;
  }

  /** Reads the free space now, then every few seconds until {@link stop}. */
  async start(): Promise<void> {
    await this.check();
    this.timer = setInterval(() => void this.check(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Reads the free space once and updates the state (a failed read keeps the last state). */
  async check(): Promise<void> {
    const free = await this.read(this.dir).catch(() => undefined);
    if (free === undefined) return;
    this.freeBytes = free;
    const low = free < this.minFreeBytes;
    if (low && !this.lowNow)
      this.log.warn(
        `disk low: ${Math.floor(free / 2 ** 20)} MiB free on ${this.dir} (DISK_MIN_FREE_MB is ${Math.floor(this.minFreeBytes / 2 ** 20)}): new orders and withdrawals are refused until there is room again`,
      );
    if (!low && this.lowNow)
      this.log.info(`disk space back: ${Math.floor(free / 2 ** 20)} MiB free; taking orders again`);
    this.lowNow = low;
  }

  /** Adds the refusal to each guarded route as it is declared (routes that add no money movement pay nothing). */
  install(app: FastifyInstance): void {
    const refuse: preHandlerHookHandler = (_request, _reply, done) => {
      done(this.lowNow ? new AppError(503, [ERRORS.diskLow]) : undefined);
    };
    app.addHook('onRoute', (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (!methods.some((m) => DISK_GUARDED_ROUTES.has(`${m} ${route.url}`))) return;
      const existing = route.preHandler;
      route.preHandler = [refuse, ...(existing ? (Array.isArray(existing) ? existing : [existing]) : [])];
    });
  }
}
