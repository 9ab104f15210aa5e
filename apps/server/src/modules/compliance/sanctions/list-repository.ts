import type pg from 'pg';
import type { Tx } from '../../../db/pool.ts';
import type { SanctionsEntity } from './xml.ts';

type Db = pg.Pool | Tx;

/** A list's record: the file it came from, its SHA-256, the counts and when it was imported. */
export interface ListRow {
  id: number;
  file_name: string;
  file_sha256: string;
  generated_at: string | null;
  entity_count: number;
  name_count: number;
  imported_at: Date;
}

/** A list entry as screening reports it (the entry's id as a number). */
export interface EntryRow {
  id: number;
  logical_id: string;
  eu_reference: string | null;
  subject_type: string;
  regulation: string | null;
}

/** A name of a list entry. */
export interface EntryNameRow {
  entry_id: number;
  whole_name: string;
}

/** An entry of a list file as it is stored (its names go separately, {@link insertEntryNames}). */
export type NewEntry = Omit<SanctionsEntity, 'names'>;

/** A name of a stored entry (the entry's id as returned by {@link insertEntries}). */
export interface NewEntryName {
  entry: string | undefined;
  wholeName: string;
  function: string | null;
}

/** Empties the list tables for a new import: every entry goes (names with them), no list stays current. */
export async function clearCurrentList(tx: Tx): Promise<void> {
  await tx.query(`delete from sanctions_entries`);
  await tx.query(`update sanctions_lists set current = false where current`);
}

/** Records an imported list as the current one; its id and when it was imported. */
export async function insertList(
  tx: Tx,
  l: { fileName: string; sha256: string; generatedAt: string | null; entities: number; names: number },
): Promise<{ id: number; imported_at: Date }> {
  const row = (
    await tx.query<{ id: number; imported_at: Date }>(
      `insert into sanctions_lists (file_name, file_sha256, generated_at, entity_count, name_count)
         values ($1, $2, $3, $4, $5) returning id::int, imported_at`,
      [l.fileName, l.sha256, l.generatedAt, l.entities, l.names],
    )
  ).rows[0];
  if (!row) throw new Error('the sanctions list was not recorded');
  return row;
}

/** Stores a batch of the list's entries in one statement; their ids (bigint as text) by logical id. */
export async function insertEntries(
  tx: Tx,
  listId: number,
  part: readonly NewEntry[],
): Promise<{ id: string; logical_id: string }[]> {
  return (
    await tx.query<{ id: string; logical_id: string }>(
      `insert into sanctions_entries (list_id, logical_id, eu_reference, subject_type, regulation, birthdates,
             citizenships)
           select $1, l, r, s, g, array(select json_array_elements_text(b)), array(select json_array_elements_text(c))
           from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::json[], $7::json[]) as t(l, r, s, g, b, c)
           returning id, logical_id`,
      [
        listId,
        part.map((e) => e.logicalId),
        part.map((e) => e.euReference),
        part.map((e) => e.subjectType),
        part.map((e) => e.regulation),
        part.map((e) => JSON.stringify(e.birthdates)),
        part.map((e) => JSON.stringify(e.citizenships)),
      ],
    )
  ).rows;
}

/** Stores the names of a batch of entries in one statement. */
export async function insertEntryNames(tx: Tx, rows: readonly NewEntryName[]): Promise<void> {
  await tx.query(
    `insert into sanctions_names (entry_id, whole_name, function)
         select * from unnest($1::bigint[], $2::text[], $3::text[])`,
    [rows.map((r) => r.entry), rows.map((r) => r.wholeName), rows.map((r) => r.function)],
  );
}

/** The current list's record, or undefined before the first import. */
export async function currentListRow(db: Db): Promise<ListRow | undefined> {
  return (
    await db.query<ListRow>(
      `select id::int, file_name, file_sha256, generated_at, entity_count, name_count, imported_at
       from sanctions_lists where current`,
    )
  ).rows[0];
}

/** The current list's id (bigint as text), or undefined before the first import. */
export async function currentListId(db: Db): Promise<string | undefined> {
  return (await db.query<{ id: string }>(`select id from sanctions_lists where current`)).rows[0]?.id;
}

/** The list's entries. */
export async function listEntries(db: Db, listId: string): Promise<EntryRow[]> {
  return (
    await db.query<EntryRow>(
      `select id::int, logical_id, eu_reference, subject_type, regulation from sanctions_entries
         where list_id = $1`,
      [listId],
    )
  ).rows;
}

/** The names of the list's entries, in the order they were stored. */
export async function listNames(db: Db, listId: string): Promise<EntryNameRow[]> {
  return (
    await db.query<EntryNameRow>(
      `select n.entry_id::int, n.whole_name from sanctions_names n
         join sanctions_entries e on e.id = n.entry_id where e.list_id = $1 order by n.id`,
      [listId],
    )
  ).rows;
}
