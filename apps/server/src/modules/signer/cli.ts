import { access } from 'node:fs/promises';
import { loadSignerConfig } from './config.ts';
import { SignerKeys } from './keys.ts';
import { newMnemonic, readSeedFile, rootOf, writeSeedFile } from './seed.ts';

export const SIGNER_USAGE = `  signer init               make the signer's seed (offline): prints its 24 words once and the xpubs;
                            needs SIGNER_KEY (it seals the seed file, SIGNER_SEED_FILE or DATA_DIR/signer/seed.json)
  signer xpubs              the extended public keys of the sealed seed (needs SIGNER_KEY)`;

/**
 * `signer init` and `signer xpubs`: run on the signer's machine (or an offline one), never against the database.
 * The 24 words are the only backup of the wallet: they are printed once, for paper, and kept nowhere else.
 */
export async function signerCommand(argv: string[]): Promise<number | undefined> {
  const [area, command] = argv;
  if (area !== 'signer' || (command !== 'init' && command !== 'xpubs')) return undefined;
  const config = loadSignerConfig({
    ...process.env,
    SIGNER_TOKEN: process.env.SIGNER_TOKEN ?? 'x'.repeat(32),
  });
  if (!config.seedKey) {
    console.error(
      'SIGNER_KEY is not set: it seals the seed file (16 characters at least; keep it apart from the file)',
    );
    return 1;
  }
  if (command === 'xpubs') {
    const keys = new SignerKeys(rootOf(await readSeedFile(config.seedFile, config.seedKey)));
    for (const { path, xpub } of keys.xpubs()) console.log(`${path}  ${xpub}`);
    return 0;
  }
  const exists = await access(config.seedFile).then(
    () => true,
    () => false,
  );
  if (exists) {
    console.error(`${config.seedFile} exists already: a new seed would be a new wallet. Move it away first.`);
    return 1;
  }
  const mnemonic = newMnemonic();
  await writeSeedFile(config.seedFile, mnemonic, config.seedKey);
  console.log(`sealed seed written to ${config.seedFile}\n`);
  console.log('Write these 24 words on paper and keep them offline. They are shown this once:\n');
  console.log(`  ${mnemonic}\n`);
  console.log('Extended public keys (the signer publishes them to the database when it starts):');
  for (const { path, xpub } of new SignerKeys(rootOf(mnemonic)).xpubs()) console.log(`  ${path}  ${xpub}`);
  return 0;
}
