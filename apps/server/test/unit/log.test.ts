import { describe, expect, it } from 'vitest';
import { createLogger, lifecycleLogger } from '../../src/log.ts';

const capture = () => {
  const lines: string[] = [];
  return { lines, stream: { write: (line: string) => void lines.push(line) } };
};

describe('the process logger', () => {
  it('writes JSON lines with the module and the level, and LOG_LEVEL applies to every module', () => {
    const { lines, stream } = capture();
    const logger = createLogger({ level: 'warn', format: 'json', stream });
    const wallet = logger.child({ module: 'wallet' });
    wallet.info('not shown at warn');
    wallet.warn({ network: 'tron-sim' }, 'node not answering');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      level: 40,
      module: 'wallet',
      network: 'tron-sim',
      msg: 'node not answering',
    });
  });

  it('writes plain lines for a terminal: the message, warnings marked, extra fields as JSON', () => {
    const { lines, stream } = capture();
    const logger = createLogger({ level: 'info', format: 'text', stream });
    logger.child({ module: 'core' }).info('took over as the active exchange core (term 2)');
    logger.child({ module: 'backup' }).warn({ err: 'disk full' }, 'scheduled backup failed');
    expect(lines).toEqual([
      'took over as the active exchange core (term 2)\n',
      'WARN scheduled backup failed {"err":"disk full"}\n',
    ]);
  });

  it("writes the process's life at info even when LOG_LEVEL is quieter, and follows a louder one", () => {
    const { lines, stream } = capture();
    const quiet = createLogger({ level: 'silent', format: 'text', stream });
    lifecycleLogger(quiet, 'main').info('Exchange is running');
    lifecycleLogger(quiet, 'main').debug('not at info');
    expect(lines).toEqual(['Exchange is running\n']);
    const loud = createLogger({ level: 'debug', format: 'text', stream });
    lifecycleLogger(loud, 'main').debug('shown at debug');
    expect(lines.at(-1)).toBe('shown at debug\n');
  });
});
