import { sealBytes } from '@exchange/server/provider-kit';
import type pg from 'pg';

/** Rows taken at a time: images are up to 10 MB each, so a few at once keeps the memory small. */
const BATCH = 4;

/**
 * Seals the document images an earlier version of a simulator stored in plain text (migration 0025), with the
 * simulator's own key, as the provider keeps its customers' documents encrypted. Safe in several processes at once
 * (each update names the plain row it replaces) and cheap when nothing is left.
 * @returns how many images were sealed.
 */
export async function sealPlainImages(
  db: pg.Pool,
  table: string,
  key: () => Promise<Buffer>,
): Promise<number> {
  let sealed = 0;
  for (;;) {
    const rows = (await db.query(`select id, content from ${table} where content is not null limit ${BATCH}`))
      .rows;
    let done = 0;
    for (const row of rows)
      done +=
        (
          await db.query(
            `update ${table} set content_sealed = $2, content = null where id = $1 and content is not null`,
            [row.id, sealBytes(await key(), row.content as Buffer)],
          )
        ).rowCount ?? 0;
    if (done === 0) return sealed;
    sealed += done;
  }
}
