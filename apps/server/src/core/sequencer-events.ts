import type { TablesProjector } from './projector.ts';
import type { BatchTiming, CommittedBatch, RecoveredListener } from './sequencer-types.ts';

/**
 * What the sequencer tells the modules around it: committed batches (streams, replicas), each batch's timing and
 * each projector (metrics), and reloads after a lost database (views resync). The sequencer calls the lists.
 */
export abstract class SequencerEvents {
  protected readonly committedListeners: ((batch: CommittedBatch) => void)[] = [];
  protected readonly timings: ((batch: BatchTiming) => void)[] = [];
  protected readonly projectorListeners: ((projector: TablesProjector) => void)[] = [];
  protected readonly recoveredListeners: RecoveredListener[] = [];

  /** The projector of the journal into the tables (its lag, for metrics). */
  abstract get tables(): TablesProjector;

  /** Subscribes to each projector, now and after every reload (metrics follow its writes). */
  onProjector(listener: (projector: TablesProjector) => void): void {
    this.projectorListeners.push(listener);
    listener(this.tables);
  }

  /** Subscribes to each batch's size and commit time (metrics). */
  onTimed(listener: (batch: BatchTiming) => void): void {
    this.timings.push(listener);
  }

  /** Subscribes to batches committed to the journal. */
  onCommitted(listener: (batch: CommittedBatch) => void): void {
    this.committedListeners.push(listener);
  }

  /** Subscribes to reloads from the database after a lost connection. */
  onRecovered(listener: RecoveredListener): void {
    this.recoveredListeners.push(listener);
  }
}
