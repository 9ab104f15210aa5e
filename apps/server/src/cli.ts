import { BACKUP_USAGE, backupCommand, isOfflineBackupCommand, offlineBackupCommand } from './backup/cli.ts';
import {
  loadSimulator,
  offlineCardSimulator,
  offlineKycSimulator,
  offlineTravelRuleDesk,
} from './compose-providers.ts';
import { simulatorSchemas } from './compose-schemas.ts';
import { loadConfig } from './config.ts';
import { auditLedger } from './core/audit.ts';
import { describeReport, journalFailures, verifyJournal } from './core/journal/verify.ts';
import { openDatabase } from './db/database.ts';
import { searchUsers } from './modules/admin/customers.ts';
import { STAFF_USAGE, staffCommand } from './modules/admin/staff.ts';
import { findUserDetail } from './modules/admin/users.ts';
import { CARD_NETWORK_USAGE, CARD_USAGE, cardReview, cardStatus } from './modules/card/review-commands.ts';
import { SANCTIONS_USAGE, sanctionsCommand } from './modules/compliance/sanctions/cli.ts';
import { TRAVEL_RULE_USAGE, travelRuleCommand } from './modules/compliance/travel-rule/network-commands.ts';
import { CUSTODY_USAGE, custodyCommand, custodyNetworks } from './modules/custody/cli.ts';
import { auditSolvency } from './modules/custody/solvency-audit.ts';
import { kycCommand } from './modules/kyc/review-commands.ts';
import { SIGNER_USAGE, signerCommand } from './modules/signer/cli.ts';
import { WALLET_USAGE, walletCommand } from './modules/wallet/cli.ts';
import { locateDatabase, runningApps, runtimeDir } from './runtime-registry.ts';

const USAGE = `usage: npm run cli -- <command> [args]

commands:
  user list                 list all users, newest first
  user show <email>         one user with labels, phones and balances
  audit                     check money conservation, that balances equal their ledger postings, that the
                            journal replays to the tables and its postings, and that on-chain holdings cover what
                            customers are owed, per currency
  core verify               replay the command journal from the first engine snapshot in this process, and
                            compare the state hash with every snapshot the core stored, with the tables, and each
                            command's postings with the ledger
  kyc approve <email>       the KYC simulator's reviewer: GREEN (identity verified, level 3)
  kyc reject <email>        RED, FINAL: no further attempts
  kyc retry <email>         RED, RETRY: the user may resubmit
  kyc hold <email>          put the review on hold
  kyc reset <email>         reset the applicant (drops level 3)
  kyc status <email>        the applicant at the simulator and the user's KYC labels
  kyc company-approve <email>  the same decisions (company-reject, company-retry, ...) on a business
                            account's company (KYB); level 3 needs both the company and the person
${CARD_USAGE}
${CARD_NETWORK_USAGE}
${WALLET_USAGE}
${STAFF_USAGE}
${SIGNER_USAGE}
${CUSTODY_USAGE}
${SANCTIONS_USAGE}
${TRAVEL_RULE_USAGE}
${BACKUP_USAGE}`;

/** Operator command line against the same database as the app (shares a running embedded server). */
async function main(argv: string[]): Promise<number> {
  const [area, command, ...args] = argv;
  if (!area || area === 'help' || area === '--help') {
    console.log(USAGE);
    return area ? 0 : 2;
  }
  const offline = loadConfig({ ...process.env, SEED_DEMO: 'false' });
  const log = { info: () => {}, warn: (m: string) => console.warn(m) };
  // The signer's seed is made offline: no database.
  const signer = await signerCommand(argv);
  if (signer !== undefined) return signer;
  // A restore must not start (or create) the database it restores.
  if (isOfflineBackupCommand(argv, offline)) return offlineBackupCommand(argv, offline);
  // The running app's database, found as the app finds it (or a one-line refusal): never a new empty one.
  const located = locateDatabase(process.env, await runningApps(runtimeDir(process.env)));
  if (!located.ok) {
    console.error(located.message);
    return 1;
  }
  if (located.found)
    console.warn(`using the running app's database in ${located.found.dataDir} (pid ${located.found.pid})`);
  const config = loadConfig({ ...process.env, ...located.env, SEED_DEMO: 'false' });
  const database = await openDatabase(config, log, { attach: true, schemas: await simulatorSchemas(config) });
  try {
    if (area === 'backup') return await backupCommand(argv, config, database);
    if (area === 'core' && command === 'verify') {
      const report = await verifyJournal(database.pool);
      console.log(describeReport(report));
      for (const failure of journalFailures(report)) console.error(failure);
      console.log(
        report.ok ? 'core verify passed: the journal replays to the live state' : 'core verify FAILED',
      );
      return report.ok ? 0 : 1;
    }
    if (area === 'audit') {
      const failures = await auditLedger(database.pool);
      for (const f of failures)
        console.error(`${f.rule}: ${f.currency}${f.account ? ` ${f.account}` : ''}: ${f.detail}`);
      const journal = journalFailures(await verifyJournal(database.pool));
      for (const failure of journal) console.error(failure);
      console.log(
        failures.length + journal.length === 0
          ? 'audit passed: every currency is conserved, every balance equals its postings, and the journal replays to them'
          : `audit FAILED: ${failures.length + journal.length} problem(s)`,
      );
      const solvent = await auditSolvency(
        database.pool,
        await custodyNetworks(database.pool, config),
        console,
      );
      return failures.length + journal.length === 0 && solvent ? 0 : 1;
    }
    const sanctions = await sanctionsCommand(argv, database.pool, config);
    if (sanctions !== undefined) return sanctions;
    const travelRule = await travelRuleCommand(argv, database.pool, config.travelRule, () =>
      offlineTravelRuleDesk(config, database.pool),
    );
    if (travelRule !== undefined) return travelRule;
    const custody = await custodyCommand(argv, database, config);
    if (custody !== undefined) return custody;
    const staff = await staffCommand(argv, database.pool);
    if (staff) {
      (staff.ok ? console.log : console.error)(staff.message);
      return staff.ok ? 0 : 1;
    }
    const wallet = await walletCommand(argv, database.pool, config);
    if (wallet !== undefined) return wallet;
    if (area === 'kyc' && command && args[0]) {
      if (config.kyc.provider !== 'simulator') {
        console.error('KYC_PROVIDER=sumsub: reviews happen in the Sumsub dashboard');
        return 1;
      }
      const { desk } = await offlineKycSimulator(config, database.pool);
      const result = await kycCommand(database.pool, desk, command, args[0]);
      (result.ok ? console.log : console.error)(result.message);
      return result.ok ? 0 : 1;
    }
    if (area === 'card' && command === 'status' && args[0]) {
      const desk =
        config.card.issuer === 'simulator'
          ? (await offlineCardSimulator(config, database.pool)).desk
          : undefined;
      const result = await cardStatus(database.pool, desk, args[0]);
      (result.ok ? console.log : console.error)(result.message);
      return result.ok ? 0 : 1;
    }
    if (area === 'card' && command === 'review' && args[0] && args[1]) {
      if (config.card.issuer !== 'simulator') {
        console.error('CARD_ISSUER=marqeta: reviews happen at Marqeta');
        return 1;
      }
      const reason = args.slice(2).join(' ') || undefined;
      const { desk } = await offlineCardSimulator(config, database.pool);
      const result = await cardReview(database.pool, desk, args[0], args[1], reason);
      (result.ok ? console.log : console.error)(result.message);
      return result.ok ? 0 : 1;
    }
    if (area === 'card' && command && ['spend', 'atm', 'fee', 'refund', 'reverse'].includes(command)) {
      if (config.card.issuer !== 'simulator') {
        console.error('CARD_ISSUER=marqeta: card transactions happen on the real network');
        return 1;
      }
      const { cardNetwork } = await loadSimulator.cardIssuer();
      const result = await cardNetwork(database.pool, command, args, config.card.fees.eurPerUsdt);
      (result.ok ? console.log : console.error)(result.message);
      return result.ok ? 0 : 1;
    }
    if (area === 'user' && command === 'list') {
      // The console's search with no query: every user, newest first.
      console.table((await searchUsers(database.pool, { q: '', page: 1, limit: 100_000 })).items);
      return 0;
    }
    if (area === 'user' && command === 'show' && args[0]) {
      const user = await findUserDetail(database.pool, args[0]);
      if (!user) {
        console.error(`no user with email ${args[0]}`);
        return 1;
      }
      console.log(JSON.stringify(user, null, 2));
      return 0;
    }
    console.error(`unknown command: ${argv.join(' ')}\n\n${USAGE}`);
    return 2;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
