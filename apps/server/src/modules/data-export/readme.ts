/**
 * `README.txt` at the top of the archive: what each file holds and what is left out, and why. Kept beside the
 * code that writes the files, so the two change together (the project README says the same in short).
 */
export function readmeText(uid: string, at: Date, mailRetentionDays: number): string {
  return `A copy of your data
===================

Account ${uid}, taken ${at.toISOString()} (UTC).

Each table comes twice, with the same rows: as CSV (comma-separated, UTF-8, one header line) and as JSON (one
array of objects). Amounts are exact decimal strings, never rounded; times are ISO 8601 in UTC. Rows are oldest
first. A CSV cell that a spreadsheet would run as a formula starts with an apostrophe.

profile.json            your account as GET /resource/users/me shows it, with labels, phones and profiles
account.csv             the same account fields, one line
labels.csv, phones.csv, profiles.csv
security-log.*          every entry of your security log (logins, session ends, security changes)
balances.*              your balance and locked amount in each currency now
orders.*                all your orders, open and closed
trades.*                all your trades, from your side, with the fee you paid
deposits.*              all your deposits, incoming internal transfers included
withdrawals.*           all your withdrawals, outgoing internal transfers included
adjustments.*           balance corrections made by our staff and approved
swaps.*                 all your swaps
beneficiaries.*         your saved withdrawal addresses
api-keys.*              your API keys: key id, algorithm, state, allowed IPs, dates
card-statements.*       every transaction of each of your payment cards, in USDT with the euro amount beside
fiat-withdrawals.*      your euro withdrawals to a bank account (IBAN, holder, amount, fee, state)
bank-deposits.*         the SEPA transfers from your bank credited (or waiting) to your account
payout-files.*, payout-rows.*
                        your mass payout files and each of their rows, with the withdrawal it made
company.*, company-representatives.*, company-documents.*
                        a business account's company, its representatives and owners, and its documents
                        listed by name, type and date (the files themselves are not copied: ask support)
account-closure.*       your request to close the account, its dates and the withdrawals it made

What is left out, and why
-------------------------
- Your password, two-factor secret, API key secrets and session tokens: we keep only what checks them (a hash,
  or the secret encrypted), and a copy of them in a file would let whoever finds the file into your account.
- Card numbers, security codes and PINs: the card number is shown masked (first and last four digits), as in
  the statement; the full number, CVV and PIN are shown only in the app, behind your second factor.
- Your identity documents and card-holder documents: they are kept sealed with the server key; ask support
  for a copy of them.
- One-time codes, and the records of mail and SMS we sent you (kept ${mailRetentionDays} days at most).

A download that stopped before its end is incomplete: its archive cannot be opened. One copy a day can be
taken; a download the server could not finish does not count.
`;
}
