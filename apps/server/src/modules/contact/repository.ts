import type pg from 'pg';

/** A contact message as stored. */
export interface StoredInquiry {
  email: string;
  subject: string;
  name: string;
  message: string;
  userType: string;
  userId: string | null;
  ip: string;
  userAgent: string | null;
}

/** Stores a contact message and returns its id. */
export async function insertInquiry(db: pg.Pool, m: StoredInquiry): Promise<string> {
  const result = await db.query<{ id: string }>(
    `insert into contact_messages (email, subject, name, message, user_type, user_id, ip, user_agent)
     values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
    [m.email, m.subject, m.name, m.message, m.userType, m.userId, m.ip, m.userAgent],
  );
  return result.rows[0]!.id;
}
