import type pg from 'pg';

/** The travel-rule simulator's tables: the answer per provider, and every message with its answer. */

/** How a simulated provider answers. */
export type SimAnswer = 'accepted' | 'refused' | 'timeout';

/** The answer already given to a message with this reference, if any. */
export async function knownAnswer(
  db: pg.Pool,
  reference: string,
): Promise<{ answer: SimAnswer; reason: string | null } | undefined> {
  return (
    await db.query('select answer, reason from travel_rule_sim_messages where reference = $1', [reference])
  ).rows[0];
}

/** How the provider is set to behave (`accept` unless its row says `refuse` or `timeout`). */
export async function providerBehaviour(db: pg.Pool, providerId: string): Promise<string> {
  return (
    (await db.query('select behaviour from travel_rule_sim_providers where provider_id = $1', [providerId]))
      .rows[0]?.behaviour ?? 'accept'
  );
}

/** Keeps a message and its answer (a repeated reference takes the new answer). */
export async function recordMessage(
  db: pg.Pool,
  message: { reference: string; providerId: string; body: unknown; answer: SimAnswer; reason: string | null },
): Promise<void> {
  await db.query(
    `insert into travel_rule_sim_messages (reference, provider_id, payload, answer, reason)
     values ($1, $2, $3::jsonb, $4, $5)
     on conflict (reference) do update set answer = excluded.answer, reason = excluded.reason`,
    [message.reference, message.providerId, JSON.stringify(message.body), message.answer, message.reason],
  );
}

/** The originator record delivered for one incoming transfer (network, txid, our address), if any. */
export async function incomingRecord(
  db: pg.Pool,
  transfer: { network: string; txid: string; address: string },
): Promise<{ provider_id: string; payload: unknown } | undefined> {
  return (
    await db.query(
      `select provider_id, payload from travel_rule_sim_incoming
        where blockchain_key = $1 and txid = $2 and address = $3`,
      [transfer.network, transfer.txid, transfer.address],
    )
  ).rows[0];
}

/** The provider a sending address belongs to, if the simulator knows it. */
export async function addressOwner(db: pg.Pool, network: string, address: string): Promise<string | null> {
  return (
    (
      await db.query(
        'select provider_id from travel_rule_sim_addresses where blockchain_key = $1 and address = $2',
        [network, address],
      )
    ).rows[0]?.provider_id ?? null
  );
}
