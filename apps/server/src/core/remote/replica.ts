import type { Command, CommandResult, Engine } from '@exchange/engine';
import { type Consumer, type ConsumerMessages, DeliverPolicy, type NatsConnection } from 'nats';
import type pg from 'pg';
import { withReadSnapshot } from '../../db/pool.ts';
import type { Core, CoreSequencer } from '../index.ts';
import { changesMarkets, followMarkets } from '../market-rows.ts';
import { Units } from '../persistence.ts';
import { loadCore } from '../recovery.ts';
import type {
  CommittedBatch,
  CommittedResult,
  LoadedCore,
  RecoveredListener,
  SubmitOptions,
  Submitted,
} from '../sequencer.ts';
import { ensureBatchStream } from './core-server.ts';
import { ProjectionWatch } from './projection-watch.ts';
import type { RemoteSequencer } from './remote-sequencer.ts';
import { BATCH_STREAM, type PublishedBatch } from './subjects.ts';
import { decodePublished } from './wire.ts';

interface Log {
  warn(message: string): void;
}

/**
 * The core as an api or ws process has it: commands go to the active core ({@link RemoteSequencer}), and a
 * replica of the engine follows the committed batches from the JetStream stream. The engine is deterministic,
 * so applying the core's commands in order to the same state gives the core's results: reads (balances, depth)
 * and the market-data streams come from it as in the one-process app. It starts from a consistent snapshot of
 * the database; when a batch is missing (a publish failed, the core failed over with unpublished batches, the
 * stream's window passed) it reloads a snapshot and tells its listeners `missed`, so views resync.
 */
export class ReplicaSequencer implements CoreSequencer {
  private readonly listeners: ((batch: CommittedBatch) => void)[] = [];
  private readonly recoveredListeners: RecoveredListener[] = [];
  private messages: ConsumerMessages | undefined;
  private tables: ProjectionWatch | undefined;
  private consumer: Consumer | undefined;
  private term = 0;
  /** Batches applied and snapshots reloaded, for health and tests. */
  readonly stats = { batches: 0, reloads: 0 };

  private constructor(
    private engine: Engine,
    private appliedSeq: number,
    private readonly load: () => Promise<{ engine: Engine; batchSeq: number; term: number }>,
    private readonly remote: RemoteSequencer,
    private readonly log: Log,
    /** The market map the edges read: kept in step with replayed market commands and reloads. */
    private readonly units: Units,
  ) {}

  /** Subscribes to the batch stream, loads a snapshot, and follows. */
  static async start(db: pg.Pool, nc: NatsConnection, remote: RemoteSequencer, log: Log): Promise<Core> {
    const units = new Units(new Map(), new Map());
    const load = async () => {
      const loaded = await consistentSnapshot(db, units);
      return { engine: loaded.engine, batchSeq: loaded.position.journalSeq, term: loaded.position.term };
    };
    await ensureBatchStream(nc);
    // Listening starts before the snapshot is read: a batch committed after it is then certainly delivered.
    const consumer = await nc.jetstream().consumers.get(BATCH_STREAM, { deliver_policy: DeliverPolicy.New });
    const messages = await consumer.consume();
    const first = await load();
    const replica = new ReplicaSequencer(first.engine, first.batchSeq, load, remote, log, units);
    replica.tables = new ProjectionWatch(db, nc);
    // The views built from the tables (books, candles) start where the engine stands: with the tables behind the
    // journal (the core is down, or catching up), this waits for the core to project it.
    for (;;) {
      try {
        await replica.tables.reach(first.batchSeq);
        break;
      } catch (err) {
        log.warn(
          `replica: waiting for the exchange core to bring the tables to batch ${first.batchSeq}: ${err}`,
        );
      }
    }
    replica.term = first.term;
    replica.messages = messages;
    replica.consumer = consumer;
    void replica.follow(messages);
    return { sequencer: replica, units, markets: units.markets };
  }

  get state(): Engine {
    return this.engine;
  }

  get available(): boolean {
    return this.remote.available;
  }

  /** Committed batches the active core has published that this replica has not applied yet (its lag). */
  async pendingBatches(): Promise<number | undefined> {
    const info = await this.consumer?.info();
    return info ? info.num_pending + info.num_ack_pending : undefined;
  }

  get coreTerm(): number {
    return this.term;
  }

  /** The last batch applied. */
  get committedSeq(): number {
    return this.appliedSeq;
  }

  submit(command: Submitted, ref?: string, options: SubmitOptions = {}): Promise<CommittedResult> {
    return this.remote.submit(command, ref, options.ack).then((result) => {
      if (result.seq !== undefined) this.tables?.acknowledged(result.seq);
      return result;
    });
  }

  /** Waits until the tables hold every batch this replica has applied or this process was answered for. */
  settled(): Promise<void> {
    return this.tables?.reach(this.appliedSeq) ?? Promise.resolve();
  }

  submitDated(): Promise<CommandResult> {
    return Promise.reject(new Error('only the active core replays a dated history'));
  }

  onCommitted(listener: (batch: CommittedBatch) => void): void {
    this.listeners.push(listener);
  }

  onRecovered(listener: RecoveredListener): void {
    this.recoveredListeners.push(listener);
  }

  async drain(): Promise<void> {}

  /** Stops following the stream. */
  stop(): void {
    this.messages?.stop();
    this.tables?.stop();
  }

  private async follow(messages: ConsumerMessages): Promise<void> {
    for await (const message of messages) {
      let batch: PublishedBatch;
      try {
        batch = decodePublished(message.data);
      } catch {
        this.log.warn('replica: an unreadable batch on the stream; reloading');
        await this.reload();
        continue;
      }
      this.term = Math.max(this.term, batch.term);
      if (batch.resync) {
        await this.reload();
        continue;
      }
      if (batch.seq <= this.appliedSeq) continue;
      if (batch.seq !== this.appliedSeq + 1) {
        await this.reload();
        if (batch.seq <= this.appliedSeq) continue;
        if (batch.seq !== this.appliedSeq + 1) continue;
      }
      this.apply(batch);
    }
  }

  private apply(batch: PublishedBatch): void {
    const commands = batch.commands as Command[];
    const results = commands.map((command) => {
      const result = this.engine.apply(command);
      if (changesMarkets(command)) followMarkets(this.units, result);
      return result;
    });
    this.appliedSeq = batch.seq;
    this.stats.batches++;
    for (const listener of this.listeners) listener({ seq: batch.seq, results, commands });
  }

  private async reload(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        const { engine, batchSeq, term } = await this.load();
        this.engine = engine;
        this.appliedSeq = batchSeq;
        this.term = Math.max(this.term, term);
        this.stats.reloads++;
        await this.tables?.reach(batchSeq);
        for (const listener of this.recoveredListeners) await listener({ seq: batchSeq, missed: true });
        return;
      } catch (err) {
        this.log.warn(`replica: reloading from the database failed: ${String(err)}`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 100 * 2 ** attempt)));
      }
    }
  }
}

/**
 * The engine as of one committed batch: the tables and the journal after them read in one repeatable-read
 * transaction, the markets and fees too (staff change them through the core, projected with their batch).
 */
function consistentSnapshot(db: pg.Pool, units: Units): Promise<LoadedCore> {
  return withReadSnapshot(db, (client) => loadCore(client, units));
}
