import pino from 'pino';

/** Where log lines go: a stream with `write` (tests capture them). */
export interface LogStream {
  write(line: string): void;
}

/** How the lines look: one JSON object per line (for a log collector), or plain text (for a terminal). */
export type LogFormat = 'json' | 'text';

/** Fields of a JSON line that the text format leaves out (the time and the process are the terminal's). */
const TEXT_HIDDEN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'module']);

/**
 * Plain lines for a terminal: the message, then any other fields as JSON; warnings and errors go to stderr
 * with their level in front, as an operator's eye expects.
 */
function textStream(stdout: LogStream, stderr: LogStream): LogStream {
  return {
    write(line: string) {
      const entry = JSON.parse(line) as Record<string, unknown> & { level: number; msg?: string };
      const extra = Object.fromEntries(Object.entries(entry).filter(([key]) => !TEXT_HIDDEN.has(key)));
      const text = `${entry.msg ?? ''}${Object.keys(extra).length > 0 ? ` ${JSON.stringify(extra)}` : ''}`;
      if (entry.level >= 50) stderr.write(`ERROR ${text}\n`);
      else if (entry.level >= 40) stderr.write(`WARN ${text}\n`);
      else stdout.write(`${text}\n`);
    },
  };
}

/**
 * The process's one logger (pino): the HTTP requests, the core, the wallet, the card and KYC providers, mail,
 * backups; each part logs through a child with its `module`. LOG_LEVEL applies to all of it. `stream` replaces
 * the destination (both formats), e.g. to capture the lines in a test.
 */
export function createLogger(options: { level: string; format: LogFormat; stream?: LogStream }): pino.Logger {
  const json = options.stream ?? pino.destination({ fd: 1, sync: true });
  const destination =
    options.format === 'json'
      ? json
      : textStream(options.stream ?? process.stdout, options.stream ?? process.stderr);
  return pino(
    { level: options.level, base: options.format === 'json' ? { pid: process.pid } : null },
    destination,
  );
}

/** A logger for one part of the process. */
export type ModuleLogger = pino.Logger;

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/**
 * The logger of the process's life (listening, standing by, taking over, a job started, stopping): its lines are
 * what a supervisor or an operator waits for, so they are written at `info` even when LOG_LEVEL is quieter (a
 * more talkative LOG_LEVEL applies).
 */
export function lifecycleLogger(logger: pino.Logger, module: string): pino.Logger {
  const level = LEVELS.indexOf(logger.level) < LEVELS.indexOf('info') ? logger.level : 'info';
  return logger.child({ module }, { level });
}
