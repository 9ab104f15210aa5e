import type { CardDocumentType } from '@exchange/shared';
import type pg from 'pg';
import type { Tx } from '../../db/pool.ts';

type Db = pg.Pool | Tx;

/** What is stored about a holder's image, without the image. */
export interface DocumentInfo {
  doc_type: CardDocumentType;
  mime_type: string;
  size_bytes: number;
  updated_at: Date;
}

export async function holderDocuments(db: Db, holderId: string): Promise<DocumentInfo[]> {
  return (
    await db.query<DocumentInfo>(
      'select doc_type, mime_type, size_bytes, updated_at from card_holder_documents where holder_id = $1 order by id',
      [holderId],
    )
  ).rows;
}

/** Stores an image of the holder (sealed by the caller), replacing the previous one of that type. */
export async function putDocument(
  db: Db,
  holderId: string,
  doc: { docType: CardDocumentType; mimeType: string; sizeBytes: number; sealed: Buffer },
): Promise<void> {
  await db.query(
    `insert into card_holder_documents (holder_id, doc_type, mime_type, size_bytes, content_sealed)
     values ($1, $2, $3, $4, $5)
     on conflict (holder_id, doc_type) do update set mime_type = excluded.mime_type, size_bytes = excluded.size_bytes,
       content = null, content_sealed = excluded.content_sealed, issuer_document_token = null, updated_at = now()`,
    [holderId, doc.docType, doc.mimeType, doc.sizeBytes, doc.sealed],
  );
}

/**
 * A holder's image, sealed. Its `content_sealed` column is null only on an image from before sealing, until the
 * startup backfill (db/seal-backfill.ts) seals it, so never once the app runs.
 */
export interface SealedDocument {
  doc_type: CardDocumentType;
  mime_type: string;
  sealed: Buffer;
}

/** The images of a holder, sealed (to open and send them to the issuer). */
export async function documentsWithContent(db: Db, holderId: string): Promise<SealedDocument[]> {
  return (
    await db.query<SealedDocument>(
      `select doc_type, mime_type, content_sealed as sealed from card_holder_documents where holder_id = $1
       order by id`,
      [holderId],
    )
  ).rows;
}

export async function setDocumentIssuerToken(
  db: Db,
  holderId: string,
  docType: string,
  token: string,
): Promise<void> {
  await db.query(
    'update card_holder_documents set issuer_document_token = $3 where holder_id = $1 and doc_type = $2',
    [holderId, docType, token],
  );
}

/** One image of the user's own holder, sealed. */
export async function documentImage(
  db: Db,
  userId: string,
  docType: string,
): Promise<Pick<SealedDocument, 'sealed'> | undefined> {
  return (
    await db.query<Pick<SealedDocument, 'sealed'>>(
      `select d.content_sealed as sealed from card_holder_documents d join card_holders h on h.id = d.holder_id
       where h.user_id = $1 and d.doc_type = $2`,
      [userId, docType],
    )
  ).rows[0];
}
