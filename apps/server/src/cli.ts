import type { Config } from './config.ts';
import { loadConfig } from './config.ts';
import type { Database } from './db/database.ts';
import { locateDatabase, runningApps, runtimeDir } from './runtime-registry.ts';

/**
 * The help text. Each area's lines live beside its commands, so the help loads every area (a command loads only
 * its own: see {@link AREAS}).
 */
async function usage(): Promise<string> {
  const [backup, card, sanctions, travelRule, custody, staff, signer, wallet] = await Promise.all([
    import('./backup/cli.ts'),
    import('./modules/card/review-commands.ts'),
    import('./modules/compliance/sanctions/cli.ts'),
    import('./modules/compliance/travel-rule/network-commands.ts'),
    import('./modules/custody/cli.ts'),
    import('./modules/admin/staff.ts'),
    import('./modules/signer/cli.ts'),
    import('./modules/wallet/cli.ts'),
  ]);
  return `usage: npm run cli -- <command> [args]

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
${card.CARD_USAGE}
${card.CARD_NETWORK_USAGE}
${wallet.WALLET_USAGE}
${staff.STAFF_USAGE}
${signer.SIGNER_USAGE}
${custody.CUSTODY_USAGE}
${sanctions.SANCTIONS_USAGE}
${travelRule.TRAVEL_RULE_USAGE}
${backup.BACKUP_USAGE}`;
}

/** A command's arguments (area first) and the app's configuration and database. */
interface CommandRun {
  argv: string[];
  config: Config;
  database: Database;
}

/** Runs a command of one area: its exit code, or `undefined` when the arguments are not one of its commands. */
type AreaCommands = (run: CommandRun) => Promise<number | undefined>;

/** Prints a command's answer (an error on stderr) and gives its exit code. */
function report(result: { ok: boolean; message: string }): number {
  (result.ok ? console.log : console.error)(result.message);
  return result.ok ? 0 : 1;
}

/** Audit: the ledger's rules, the journal's replay and the chains' holdings. */
async function audit({ config, database }: CommandRun): Promise<number> {
  const [{ auditLedger }, { journalFailures, verifyJournal }, { custodyNetworks }, { auditSolvency }] =
    await Promise.all([
      import('./core/audit.ts'),
      import('./core/journal/verify.ts'),
      import('./modules/custody/cli.ts'),
      import('./modules/custody/solvency-audit.ts'),
    ]);
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
  const solvent = await auditSolvency(database.pool, await custodyNetworks(database.pool, config), console);
  return failures.length + journal.length === 0 && solvent ? 0 : 1;
}

/** `core verify`: the journal replayed against the stored snapshots, the tables and the ledger. */
async function core({ argv, database }: CommandRun): Promise<number | undefined> {
  if (argv[1] !== 'verify') return undefined;
  const { describeReport, journalFailures, verifyJournal } = await import('./core/journal/verify.ts');
  const report = await verifyJournal(database.pool);
  console.log(describeReport(report));
  for (const failure of journalFailures(report)) console.error(failure);
  console.log(report.ok ? 'core verify passed: the journal replays to the live state' : 'core verify FAILED');
  return report.ok ? 0 : 1;
}

/** The KYC simulator's reviewer (with Sumsub, reviews happen in its dashboard). */
async function kyc({ argv, config, database }: CommandRun): Promise<number | undefined> {
  const [, command, email] = argv;
  if (!command || !email) return undefined;
  if (config.kyc.provider !== 'simulator') {
    console.error('KYC_PROVIDER=sumsub: reviews happen in the Sumsub dashboard');
    return 1;
  }
  const [{ offlineKycSimulator }, { kycCommand }] = await Promise.all([
    import('./compose-providers.ts'),
    import('./modules/kyc/review-commands.ts'),
  ]);
  const { desk } = await offlineKycSimulator(config, database.pool);
  return report(await kycCommand(database.pool, desk, command, email));
}

/** A card's state, the simulated issuer's review, and the simulated card network's transactions. */
async function card({ argv, config, database }: CommandRun): Promise<number | undefined> {
  const [, command, ...args] = argv;
  const simulated = config.card.issuer === 'simulator';
  if (command === 'status' && args[0]) {
    const [{ offlineCardSimulator }, { cardStatus }] = await Promise.all([
      import('./compose-providers.ts'),
      import('./modules/card/review-commands.ts'),
    ]);
    const desk = simulated ? (await offlineCardSimulator(config, database.pool)).desk : undefined;
    return report(await cardStatus(database.pool, desk, args[0]));
  }
  if (command === 'review' && args[0] && args[1]) {
    if (!simulated) {
      console.error('CARD_ISSUER=marqeta: reviews happen at Marqeta');
      return 1;
    }
    const [{ offlineCardSimulator }, { cardReview }] = await Promise.all([
      import('./compose-providers.ts'),
      import('./modules/card/review-commands.ts'),
    ]);
    const { desk } = await offlineCardSimulator(config, database.pool);
    return report(
      await cardReview(database.pool, desk, args[0], args[1], args.slice(2).join(' ') || undefined),
    );
  }
  if (command && ['spend', 'atm', 'fee', 'refund', 'reverse'].includes(command)) {
    if (!simulated) {
      console.error('CARD_ISSUER=marqeta: card transactions happen on the real network');
      return 1;
    }
    const { loadSimulator } = await import('./compose-providers.ts');
    const { cardNetwork } = await loadSimulator.cardIssuer();
    return report(await cardNetwork(database.pool, command, args, config.card.fees.eurPerUsdt));
  }
  return undefined;
}

/** The users, as the console lists and shows them. */
async function user({ argv, database }: CommandRun): Promise<number | undefined> {
  const [, command, email] = argv;
  if (command === 'list') {
    const { searchUsers } = await import('./modules/admin/customers.ts');
    // The console's search with no query: every user, newest first.
    console.table((await searchUsers(database.pool, { q: '', page: 1, limit: 100_000 })).items);
    return 0;
  }
  if (command === 'show' && email) {
    const { findUserDetail } = await import('./modules/admin/users.ts');
    const found = await findUserDetail(database.pool, email);
    if (!found) {
      console.error(`no user with email ${email}`);
      return 1;
    }
    console.log(JSON.stringify(found, null, 2));
    return 0;
  }
  return undefined;
}

/** The wallet's commands, each an area of its own name. */
const wallet: AreaCommands = async ({ argv, config, database }) =>
  (await import('./modules/wallet/cli.ts')).walletCommand(argv, database.pool, config);

/**
 * The commands against the app's database, by area (the first argument). Each area's modules are imported only
 * when it is asked for: loading every area's modules was most of a command's start (about 0.8 s of CPU).
 */
const AREAS: Record<string, AreaCommands> = {
  backup: async ({ argv, config, database }) =>
    (await import('./backup/cli.ts')).backupCommand(argv, config, database),
  core,
  audit,
  sanctions: async ({ argv, config, database }) =>
    (await import('./modules/compliance/sanctions/cli.ts')).sanctionsCommand(argv, database.pool, config),
  'travel-rule': async ({ argv, config, database }) => {
    const [{ travelRuleCommand }, { offlineTravelRuleDesk }] = await Promise.all([
      import('./modules/compliance/travel-rule/network-commands.ts'),
      import('./compose-providers.ts'),
    ]);
    return travelRuleCommand(argv, database.pool, config.travelRule, () =>
      offlineTravelRuleDesk(config, database.pool),
    );
  },
  custody: async ({ argv, config, database }) =>
    (await import('./modules/custody/cli.ts')).custodyCommand(argv, database, config),
  staff: async ({ argv, database }) => {
    const staff = await (await import('./modules/admin/staff.ts')).staffCommand(argv, database.pool);
    return staff ? report(staff) : undefined;
  },
  faucet: wallet,
  mine: wallet,
  adjust: wallet,
  withdraw: wallet,
  alerts: wallet,
  kyc,
  card,
  user,
};

/** Operator command line against the same database as the app (shares a running embedded server). */
async function main(argv: string[]): Promise<number> {
  const [area] = argv;
  if (!area || area === 'help' || area === '--help') {
    console.log(await usage());
    return area ? 0 : 2;
  }
  const offline = loadConfig({ ...process.env, SEED_DEMO: 'false' });
  const log = { info: () => {}, warn: (m: string) => console.warn(m) };
  // The signer's seed is made offline: no database.
  if (area === 'signer') {
    const signer = await (await import('./modules/signer/cli.ts')).signerCommand(argv);
    if (signer !== undefined) return signer;
  }
  // A restore must not start (or create) the database it restores.
  if (area === 'backup' || area === 'restore') {
    const { isOfflineBackupCommand, offlineBackupCommand } = await import('./backup/cli.ts');
    if (isOfflineBackupCommand(argv, offline)) return offlineBackupCommand(argv, offline);
  }
  const commands = Object.hasOwn(AREAS, area) ? AREAS[area] : undefined;
  if (!commands) return unknown(argv);
  // The running app's database, found as the app finds it (or a one-line refusal): never a new empty one.
  const located = locateDatabase(process.env, await runningApps(runtimeDir(process.env)));
  if (!located.ok) {
    console.error(located.message);
    return 1;
  }
  if (located.found)
    console.warn(`using the running app's database in ${located.found.dataDir} (pid ${located.found.pid})`);
  const config = loadConfig({ ...process.env, ...located.env, SEED_DEMO: 'false' });
  const [{ openDatabase }, { simulatorSchemas }] = await Promise.all([
    import('./db/database.ts'),
    import('./compose-schemas.ts'),
  ]);
  const database = await openDatabase(config, log, { attach: true, schemas: await simulatorSchemas(config) });
  try {
    return (await commands({ argv, config, database })) ?? (await unknown(argv));
  } finally {
    await database.close();
  }
}

/** An unknown command: the help, and the exit code of a usage error. */
async function unknown(argv: string[]): Promise<number> {
  console.error(`unknown command: ${argv.join(' ')}\n\n${await usage()}`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
