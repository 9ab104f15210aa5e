import type pg from 'pg';
import { sealIdNumber } from '../modules/card/context.ts';
import { encrypt, type ServerKeys, sealBytes } from '../modules/identity/crypto.ts';
import type { NoRows } from './pool.ts';

/**
 * Rows taken at a time: images are up to 10 MB each, so a few at once keeps the memory this takes small, and each
 * row is sealed in one native call (milliseconds), never per-byte work on the event loop.
 */
const BATCH = 4;

/** One plain column to seal: how to find rows that still hold it and how to seal one of them. */
interface Backfill {
  name: string;
  select: string;
  seal(db: pg.Pool, row: BackfillRow): Promise<pg.QueryResult<NoRows>>;
}

/** A row a backfill's select finds: its id and the one plain column that backfill seals. */
interface BackfillRow {
  id: string;
  content?: Buffer;
  doc_number?: string;
  id_no?: string;
}

/**
 * Seals what an earlier version stored in plain text (migration 0025): identity document images, KYC document
 * numbers and card holders' id numbers (the simulators seal their own copies when they are composed:
 * packages/provider-sims). The keys are the app's, which SQL never sees, hence at start rather than in the migration. Safe
 * in several processes at once (each update names the plain value it replaces) and cheap when nothing is left.
 * @returns how many values were sealed, by what.
 */
export async function sealPlainIdentityData(db: pg.Pool, keys: ServerKeys): Promise<Record<string, number>> {
  const image = (table: string, key: () => Promise<Buffer>): Backfill => ({
    name: `${table}.content`,
    select: `select id, content from ${table} where content is not null limit ${BATCH}`,
    seal: async (db, row) =>
      db.query<NoRows>(
        `update ${table} set content_sealed = $2, content = null where id = $1 and content is not null`,
        [row.id, sealBytes(await key(), row.content as Buffer)],
      ),
  });
  const backfills: Backfill[] = [
    image('kyc_documents', async () => keys.encryptionKey),
    image('card_holder_documents', async () => keys.encryptionKey),
    {
      name: 'kyc_documents.doc_number',
      select: `select id, doc_number from kyc_documents where doc_number is not null limit ${BATCH}`,
      seal: (db, row) =>
        db.query<NoRows>(
          'update kyc_documents set doc_number_sealed = $3, doc_number = null where id = $1 and doc_number = $2',
          [row.id, row.doc_number, encrypt(keys, row.doc_number as string)],
        ),
    },
    {
      name: 'card_holders.id_no',
      select: `select id, id_no from card_holders where id_no is not null limit ${BATCH}`,
      seal: (db, row) => {
        const sealed = sealIdNumber(keys, row.id_no as string);
        return db.query<NoRows>(
          `update card_holders set id_no_sealed = $3, id_no_hash = $4, id_no = null where id = $1 and id_no = $2`,
          [row.id, row.id_no, sealed.id_no_sealed, sealed.id_no_hash],
        );
      },
    },
  ];
  const sealed: Record<string, number> = {};
  for (const backfill of backfills) {
    for (;;) {
      const rows = (await db.query<BackfillRow>(backfill.select)).rows;
      let done = 0;
      for (const row of rows) done += (await backfill.seal(db, row)).rowCount ?? 0;
      // Nothing left, or only rows that changed under another process's hands (it seals them): next column.
      if (done === 0) break;
      sealed[backfill.name] = (sealed[backfill.name] ?? 0) + done;
    }
  }
  return sealed;
}
