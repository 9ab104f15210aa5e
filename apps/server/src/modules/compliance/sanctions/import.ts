import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import type pg from 'pg';
import { LOCKS, lockForTransaction } from '../../../db/locks.ts';
import { withTransaction } from '../../../db/pool.ts';
import { SERVER_DIR } from '../../../paths.ts';
import {
  clearCurrentList,
  currentListRow,
  insertEntries,
  insertEntryNames,
  insertList,
} from './list-repository.ts';
import { readSanctionsList, type SanctionsEntity, SanctionsFileError } from './xml.ts';

/**
 * The made-up list shipped for the demo and the tests (its names are fictional), read from the source tree also
 * by the built bundle (like the SQL migrations).
 */
export const DEMO_SANCTIONS_LIST = new URL('src/modules/compliance/sanctions/demo-list.xml', SERVER_DIR);

/** What an import recorded. */
export interface SanctionsImport {
  id: number;
  fileName: string;
  sha256: string;
  generatedAt: string | null;
  entities: number;
  names: number;
  importedAt: string;
}

/** Rows per insert statement. */
const BATCH = 1000;

/**
 * Imports a list file (the EU consolidated list XML) as the current list: it is read and checked in full first,
 * then the whole previous list is replaced in one transaction, so screening sees either the old list or the new
 * one, never a part. The import's date, the file's SHA-256 and the counts are kept. Screening against it happens
 * in the daily run (`sanctions screen` runs it at once). Throws {@link SanctionsFileError} for a file that is not
 * such a list (nothing is changed then).
 */
export async function importSanctionsList(db: pg.Pool, file: string | URL): Promise<SanctionsImport> {
  const hash = createHash('sha256');
  const entities: SanctionsEntity[] = [];
  const stream = createReadStream(file);
  async function* hashed() {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      hash.update(chunk);
      yield chunk;
    }
  }
  const { generationDate } = await readSanctionsList(hashed(), (e) => entities.push(e));
  if (entities.length === 0) throw new SanctionsFileError('the file holds no sanctionEntity');
  const unique = new Map(entities.map((e) => [e.logicalId, e]));
  const sha256 = hash.digest('hex');
  const fileName = basename(typeof file === 'string' ? file : file.pathname);
  const names = [...unique.values()].reduce((n, e) => n + e.names.length, 0);
  return withTransaction(db, async (tx) => {
    // One import at a time: a second one waits here and then replaces this one's list in turn.
    await lockForTransaction(tx, LOCKS.sanctionsImport);
    await clearCurrentList(tx);
    const list = await insertList(tx, {
      fileName,
      sha256,
      generatedAt: generationDate,
      entities: unique.size,
      names,
    });
    const all = [...unique.values()];
    for (let i = 0; i < all.length; i += BATCH) {
      const part = all.slice(i, i + BATCH);
      const ids = await insertEntries(tx, list.id, part);
      const idOf = new Map(ids.map((r) => [r.logical_id, r.id]));
      const rows = part.flatMap((e) => e.names.map((n) => ({ entry: idOf.get(e.logicalId), ...n })));
      await insertEntryNames(tx, rows);
    }
    return {
      id: list.id,
      fileName,
      sha256,
      generatedAt: generationDate,
      entities: unique.size,
      names,
      importedAt: list.imported_at.toISOString(),
    };
  });
}

/** Imports the demo list unless a list was imported already (development and demo start-up). */
export async function seedDemoSanctionsList(db: pg.Pool): Promise<SanctionsImport | null> {
  if (await currentSanctionsList(db)) return null;
  return importSanctionsList(db, DEMO_SANCTIONS_LIST);
}

/** The current list's record, or null before the first import. */
export async function currentSanctionsList(db: pg.Pool): Promise<SanctionsImport | null> {
  const row = await currentListRow(db);
  if (!row) return null;
  return {
    id: row.id,
    fileName: row.file_name,
    sha256: row.file_sha256,
    generatedAt: row.generated_at,
    entities: row.entity_count,
    names: row.name_count,
    importedAt: row.imported_at.toISOString(),
  };
}
