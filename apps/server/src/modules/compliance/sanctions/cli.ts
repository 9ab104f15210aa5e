import { resolve } from 'node:path';
import type pg from 'pg';
import { dateOf, systemClock } from '../../../clock.ts';
import type { Config } from '../../../config.ts';
import { countOpenHits } from './hits-repository.ts';
import { currentSanctionsList, importSanctionsList, type SanctionsImport } from './import.ts';
import { SanctionsScreening } from './screening.ts';
import { SanctionsFileError } from './xml.ts';

/** The `sanctions` commands of the operator CLI. */
export const SANCTIONS_USAGE = `  sanctions import <file>   replace the sanctions list with an EU consolidated list XML file
                            (xmlFullSanctionsList_1_1); keeps the import's date, the file's SHA-256 and counts
  sanctions status          the current list and the match threshold
  sanctions screen          screen every customer against the current list now (else the daily run does)`;

function describe(list: SanctionsImport): string {
  return `list ${list.fileName} (generated ${list.generatedAt ?? 'unknown'}), sha256 ${list.sha256}: ${list.entities} entities, ${list.names} names, imported ${list.importedAt}`;
}

/**
 * Runs a `sanctions` command; undefined when `argv` is not one. Exit code 0 on success, 1 on a refused file.
 */
export async function sanctionsCommand(
  argv: string[],
  db: pg.Pool,
  config: Config,
): Promise<number | undefined> {
  const [area, command, file] = argv;
  if (area !== 'sanctions') return undefined;
  if (command === 'import' && file) {
    try {
      // `npm run cli` runs in the repository's root: a relative path is the operator's, from where they typed it.
      const list = await importSanctionsList(db, resolve(process.env.INIT_CWD ?? process.cwd(), file));
      console.log(`imported ${describe(list)}`);
      console.log('customers are screened against it in the daily run; `sanctions screen` screens them now');
      return 0;
    } catch (err) {
      if (!(err instanceof SanctionsFileError) && (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      console.error(`not imported (the current list stays): ${(err as Error).message}`);
      return 1;
    }
  }
  if (command === 'status') {
    const list = await currentSanctionsList(db);
    console.log(list ? describe(list) : 'no sanctions list imported yet');
    console.log(`match threshold: ${config.sanctionsMatchThreshold}`);
    return 0;
  }
  if (command === 'screen') {
    // The operator's command runs in a process of its own, on the machine's clock.
    const screening = new SanctionsScreening(db, config.sanctionsMatchThreshold, console, systemClock);
    const hitsBefore = await countOpenHits(db);
    const screened = await screening.runDaily(dateOf(systemClock), true);
    console.log(
      `screened ${screened} customer(s); ${(await countOpenHits(db)) - hitsBefore} new open hit(s)`,
    );
    return 0;
  }
  console.error(SANCTIONS_USAGE);
  return 2;
}
