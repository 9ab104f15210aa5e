import type {
  TravelRuleNetworkContents,
  TravelRuleSimAnswer,
  TravelRuleSimBehaviour,
  TravelRuleTransferKey,
} from '@exchange/server/provider-kit';
import type pg from 'pg';

/**
 * The travel-rule simulator's tables (`travel_rule_sim_*`): how each provider answers, every message with its
 * answer, whose a sending address is, and the originator records providers delivered for incoming transfers. It
 * reads nothing of the exchange's own tables: what the operator tells it comes through its desk.
 */

/** How a simulated provider answers. */
export type SimAnswer = TravelRuleSimAnswer;

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
  transfer: TravelRuleTransferKey,
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

/** How a simulated provider is set to answer messages (`travel_rule_sim_providers.behaviour`). */
export type SimBehaviour = TravelRuleSimBehaviour;

/** Attributes a sending address on a network to a provider (replacing an earlier attribution of it). */
export async function attributeAddress(
  db: pg.Pool,
  entry: { network: string; address: string; providerId: string },
): Promise<void> {
  await db.query(
    `insert into travel_rule_sim_addresses (blockchain_key, address, provider_id) values ($1, $2, $3)
     on conflict (blockchain_key, address) do update set provider_id = excluded.provider_id`,
    [entry.network, entry.address, entry.providerId],
  );
}

/** Forgets whose a sending address is; false when it was not attributed. */
export async function forgetAddress(db: pg.Pool, network: string, address: string): Promise<boolean> {
  const deleted = await db.query(
    'delete from travel_rule_sim_addresses where blockchain_key = $1 and address = $2',
    [network, address],
  );
  return deleted.rowCount === 1;
}

/** Sets how a provider answers messages (`accept` is the default: its row is removed). */
export async function setBehaviour(db: pg.Pool, providerId: string, behaviour: SimBehaviour): Promise<void> {
  if (behaviour === 'accept') {
    await db.query('delete from travel_rule_sim_providers where provider_id = $1', [providerId]);
    return;
  }
  await db.query(
    `insert into travel_rule_sim_providers (provider_id, behaviour) values ($1, $2)
     on conflict (provider_id) do update set behaviour = excluded.behaviour`,
    [providerId, behaviour],
  );
}

/** Keeps the originator record a provider delivered for an incoming transfer (replacing an earlier one). */
export async function recordIncoming(
  db: pg.Pool,
  entry: TravelRuleTransferKey & { providerId: string; payload: unknown },
): Promise<void> {
  await db.query(
    `insert into travel_rule_sim_incoming (blockchain_key, txid, address, provider_id, payload)
     values ($1, $2, $3, $4, $5::jsonb)
     on conflict (blockchain_key, txid, address)
       do update set provider_id = excluded.provider_id, payload = excluded.payload, created_at = now()`,
    [entry.network, entry.txid, entry.address, entry.providerId, JSON.stringify(entry.payload)],
  );
}

/** Forgets the record of an incoming transfer; false when there was none. */
export async function forgetIncoming(db: pg.Pool, transfer: TravelRuleTransferKey): Promise<boolean> {
  const deleted = await db.query(
    'delete from travel_rule_sim_incoming where blockchain_key = $1 and txid = $2 and address = $3',
    [transfer.network, transfer.txid, transfer.address],
  );
  return deleted.rowCount === 1;
}

/** Everything the simulator was told, for `travel-rule list`. */
export async function simulatorContents(db: pg.Pool): Promise<TravelRuleNetworkContents> {
  const [addresses, behaviours, incoming, messages] = await Promise.all([
    db.query(
      'select blockchain_key, address, provider_id from travel_rule_sim_addresses order by blockchain_key, address',
    ),
    db.query('select provider_id, behaviour from travel_rule_sim_providers order by provider_id'),
    db.query(
      `select blockchain_key, txid, address, provider_id, payload from travel_rule_sim_incoming
        order by created_at desc limit 200`,
    ),
    db.query(
      `select provider_id, answer, count(*)::int as count from travel_rule_sim_messages
        group by provider_id, answer order by provider_id, answer`,
    ),
  ]);
  return {
    addresses: addresses.rows,
    behaviours: behaviours.rows,
    incoming: incoming.rows,
    messages: messages.rows,
  };
}
