import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];
type LogArgs = Parameters<FastifyBaseLogger['info']>;
type ChildLoggerFactory = NonNullable<FastifyServerOptions['childLoggerFactory']>;

/**
 * A request's logger that becomes pino's child logger (with the request id bound) only when something is logged
 * through it. Fastify builds a child per request; most requests log nothing (at the default level only failures
 * are), and building the child cost about a fiftieth of a warm request's CPU. A class, so that a request costs
 * one small object and no closures.
 */
class LazyChildLogger {
  private built: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private get real(): FastifyBaseLogger {
    this.built ??= this.parent.child(this.bindings, this.options);
    return this.built;
  }

  get level(): string {
    return this.built?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real.level = level;
  }

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }

  fatal(...args: LogArgs): void {
    this.real.fatal(...args);
  }
  error(...args: LogArgs): void {
    this.real.error(...args);
  }
  warn(...args: LogArgs): void {
    this.real.warn(...args);
  }
  info(...args: LogArgs): void {
    this.real.info(...args);
  }
  debug(...args: LogArgs): void {
    this.real.debug(...args);
  }
  trace(...args: LogArgs): void {
    this.real.trace(...args);
  }
  silent(...args: LogArgs): void {
    this.real.silent(...args);
  }
}

/** Fastify's `childLoggerFactory`: see {@link LazyChildLogger}. */
export const lazyChildLogger: ChildLoggerFactory = (logger, bindings, options) =>
  new LazyChildLogger(logger, bindings as Bindings, options as ChildOptions) as unknown as FastifyBaseLogger;
