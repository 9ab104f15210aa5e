import { createHash } from 'node:crypto';
import {
  PAYOUT_ERRORS,
  PAYOUT_LIMITS,
  type PayoutFile,
  type PayoutFileDetail,
  toUnits,
} from '@exchange/shared';
import { AppError, invalid, notFound } from '../../http/errors.ts';
import type { UploadedFile } from '../../http/multipart.ts';
import { isVerifiedBusiness } from '../business/account-type.ts';
import { DEFAULT_TRAVEL_RULE } from '../compliance/travel-rule/config.ts';
import {
  travelRuleForWithdrawal,
  undeclaredBeneficiary,
} from '../compliance/travel-rule/withdrawal-check.ts';
import type { RequestOrigin } from '../identity/registration.ts';
import type { UserRecord } from '../identity/users-repository.ts';
import { checkTotp } from '../wallet/totp-check.ts';
import { placeWithdrawal, requireWithdrawPermission, type WithdrawDeps } from '../wallet/withdrawals.ts';
import { decodeUtf8, parseCsv } from './csv.ts';
import * as repo from './repository.ts';
import { checkRows, shortfall } from './validate.ts';

/** The wallet's withdrawal dependencies (the same path single withdrawals take), and a log. */
export interface PayoutDeps extends WithdrawDeps {
  log: { warn(message: string): void };
}

/**
 * Rows of one file placed at the same time: enough for the core to batch their holds, few enough to leave the
 * database pool to everyone else.
 */
const PLACERS = 4;

/** Files listed at most (newest first). */
const LIST_LIMIT = 50;

/**
 * Mass payouts of a verified business (issue 31, part 3). A file is checked as a whole and stored only when every
 * row is valid and the balance covers it; executing it (one authenticator code) places each row through the
 * wallet's own withdrawal path ({@link placeWithdrawal}: the hold through the core, staff review by the usual
 * rules, broadcast by the processor or settlement at once for an internal one), in the background, a few rows
 * at a time.
 *
 * "Nothing is paid twice": a file is identified by its account and the SHA-256 of its bytes; while a file with
 * them exists (validated and waiting, executing or executed), the same bytes are refused with 409
 * `account.payout.duplicate_file`. Only a file that was never executed can be discarded, which frees its hash.
 * A row is claimed before it is placed, so it is placed at most once even if two runners meet; a row whose
 * placing was cut off (the process stopped) stays `interrupted` for an operator and is never placed again.
 */
export class Payouts {
  /** Files being executed by this process, by id: tests and shutdown can wait for them. */
  private readonly running = new Map<number, Promise<void>>();
  /** Set when the app closes: no further row is claimed (the rest waits for a resume, see {@link get}). */
  private stopping = false;

  constructor(private readonly deps: PayoutDeps) {}

  /** Every call starts here: a verified business (business, level 3, active), else 403. */
  private async gate(user: UserRecord): Promise<void> {
    if (!(await isVerifiedBusiness(this.deps.db, user.id)))
      throw new AppError(403, [PAYOUT_ERRORS.businessRequired]);
  }

  async list(user: UserRecord): Promise<PayoutFile[]> {
    await this.gate(user);
    return repo.listFiles(this.deps.db, Number(user.id), LIST_LIMIT);
  }

  /**
   * One of the user's files with its rows; 404 for an id that is not theirs. An executing file whose runner
   * stopped (its process ended) is resumed here, by the first look at it a minute or more later.
   */
  async get(user: UserRecord, id: number, origin: RequestOrigin | null = null): Promise<PayoutFileDetail> {
    await this.gate(user);
    const { db } = this.deps;
    const file = await repo.findFile(db, Number(user.id), id);
    if (!file) throw notFound();
    if (
      file.state === 'executing' &&
      !this.running.has(id) &&
      (await repo.adoptStopped(db, Number(user.id), id))
    ) {
      this.deps.log.warn(`payout file ${id}: its runner stopped; resumed`);
      this.start(user, id, origin);
      return this.get(user, id, origin);
    }
    return { ...file, rows: await repo.fileRows(db, id) };
  }

  /**
   * Checks an uploaded file and stores it (201) or answers why not: 409 for bytes already stored, 422 with the
   * file's codes and, for invalid rows, `rows` (each row's line and codes) and `shortfall` (per currency).
   */
  async upload(user: UserRecord, file: UploadedFile | undefined): Promise<PayoutFileDetail> {
    await this.gate(user);
    const { db } = this.deps;
    if (!file || file.content.length === 0) throw invalid(PAYOUT_ERRORS.fileRequired);
    if (file.truncated || file.content.length > PAYOUT_LIMITS.maxBytes)
      throw invalid(PAYOUT_ERRORS.fileTooLarge);
    const userId = Number(user.id);
    const sha256 = createHash('sha256').update(file.content).digest();
    const existing = await repo.fileWithHash(db, userId, sha256);
    if (existing !== null) throw new AppError(409, [PAYOUT_ERRORS.duplicateFile], { file_id: existing });
    const text = decodeUtf8(file.content);
    const parsed = text === null ? null : parseCsv(text, PAYOUT_LIMITS.maxRows + 1);
    if (parsed === null || 'failure' in parsed)
      throw invalid(
        parsed?.failure === 'too_many_lines' ? PAYOUT_ERRORS.tooManyRows : PAYOUT_ERRORS.fileUnreadable,
      );
    const checked = await checkRows(this.deps, { id: userId, level: user.level }, parsed.lines);
    if (checked.errors.length > 0)
      throw new AppError(422, checked.errors, { rows: checked.rowErrors, shortfall: checked.shortfall });
    const name = (file.fileName || 'payouts.csv').slice(0, 200);
    const id = await repo.insertFile(db, userId, sha256, name, checked.rows);
    if (id === null) {
      const other = await repo.fileWithHash(db, userId, sha256);
      throw new AppError(409, [PAYOUT_ERRORS.duplicateFile], { file_id: other });
    }
    return this.get(user, id);
  }

  /** Discards a file that was never executed (its hash may then be uploaded again). */
  async discard(user: UserRecord, id: number): Promise<void> {
    await this.gate(user);
    if (await repo.deleteValidated(this.deps.db, Number(user.id), id)) return;
    if (await repo.findFile(this.deps.db, Number(user.id), id)) throw invalid(PAYOUT_ERRORS.alreadyExecuted);
    throw notFound();
  }

  /**
   * Executes a validated file after the authenticator code: the withdrawal permission (level 3, 2FA, no hold
   * after a password or 2FA change) and the balance for the whole file are checked again first, since time has
   * passed since the upload. Answers at once (202) with the file `executing`; the rows are placed in the
   * background and the file page follows them.
   */
  async execute(user: UserRecord, id: number, otp: string, origin: RequestOrigin): Promise<PayoutFile> {
    await this.gate(user);
    const { db } = this.deps;
    const userId = Number(user.id);
    const file = await repo.findFile(db, userId, id);
    if (!file) throw notFound();
    if (file.state !== 'validated') throw invalid(PAYOUT_ERRORS.alreadyExecuted);
    await requireWithdrawPermission(this.deps, user);
    const needs = (await repo.fileNeeds(db, id)).map((n) => {
      const precision = this.deps.core.units.precision(n.currency);
      return {
        currency: n.currency,
        amount: toUnits(n.amount, precision),
        fee: toUnits(n.fee, precision),
        precision,
      };
    });
    const short = shortfall(this.deps.core, userId, needs);
    if (short.length > 0)
      throw new AppError(422, [PAYOUT_ERRORS.insufficientBalance], { rows: [], shortfall: short });
    if (this.deps.verifyTotp) await this.deps.verifyTotp(user, otp);
    else await checkTotp(this.deps, user, otp, PAYOUT_ERRORS.otpInvalid);
    if (!(await repo.startExecuting(db, userId, id))) throw invalid(PAYOUT_ERRORS.alreadyExecuted);
    this.start(user, id, origin);
    const started = await repo.findFile(db, userId, id);
    if (!started) throw notFound();
    return started;
  }

  /**
   * Stops claiming rows and resolves once the rows being placed are finished: a closing app neither waits for a
   * thousand rows nor cuts one off half-placed. The file stays executing and is resumed later (see {@link get}).
   */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.settled();
  }

  /** Resolves once this process has no file running (or `id` is not running). */
  async settled(id?: number): Promise<void> {
    if (id !== undefined) return this.running.get(id);
    await Promise.all(this.running.values());
  }

  private start(user: UserRecord, id: number, origin: RequestOrigin | null): void {
    const run = this.run(user, id, origin)
      .catch((err) => this.deps.log.warn(`payout file ${id}: ${String(err)}`))
      .finally(() => this.running.delete(id));
    this.running.set(id, run);
  }

  /**
   * Places the file's rows, each as a withdrawal of its own, by {@link PLACERS} placers side by side (each row is
   * claimed once, so they never share one; the core takes their commands in batches), then marks the file
   * executed.
   */
  private async run(user: UserRecord, id: number, origin: RequestOrigin | null): Promise<void> {
    await Promise.all(Array.from({ length: PLACERS }, () => this.place(user, id, origin)));
    await repo.finishFile(this.deps.db, id);
  }

  /** Claims and places rows of the file until none is left. */
  private async place(user: UserRecord, id: number, origin: RequestOrigin | null): Promise<void> {
    const { db, core } = this.deps;
    const next = () => (this.stopping ? null : repo.claimRow(db, id));
    for (let row = await next(); row; row = await next()) {
      const precision = core.units.precision(row.currency);
      const amount = toUnits(row.amount, precision);
      const fee = toUnits(row.fee, precision);
      try {
        // The file names no beneficiary: an outside address's record says so (`missing`, held for review with
        // TRAVEL_RULE_HOLD_UNDECLARED); a customer here is named from their verified profile.
        const travelRule = await travelRuleForWithdrawal(
          { db, core, config: this.deps.travelRule ?? DEFAULT_TRAVEL_RULE },
          user,
          {
            currency: row.currency,
            amount: amount + fee,
            recipient: row.internalUserId,
            beneficiary: undeclaredBeneficiary(row.recipient),
          },
        );
        const withdrawalId = await placeWithdrawal(
          this.deps,
          user,
          {
            currency: row.currency,
            blockchainKey: row.blockchainKey,
            beneficiaryId: null,
            rid: row.recipient,
            memo: null,
            // The withdrawal holds what the recipient gets plus the fee, which the processor keeps.
            amount: amount + fee,
            fee,
            precision,
            recipient: row.internalUserId,
            travelRule,
          },
          origin,
        );
        await repo.finishRow(db, id, row.line, { state: 'placed', withdrawalId });
      } catch (err) {
        // A refusal with a code (the balance moved meanwhile) placed nothing; anything else may have left a
        // withdrawal behind, so the row is not retried but shown to an operator.
        if (err instanceof AppError)
          await repo.finishRow(db, id, row.line, { state: 'refused', error: err.codes.join(',') });
        else {
          this.deps.log.warn(`payout file ${id}, line ${row.line}: ${String(err)}`);
          await repo.finishRow(db, id, row.line, { state: 'interrupted', error: String(err) });
        }
      }
    }
  }
}
