import { randomBytes } from 'node:crypto';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import type { SignerConfig } from './config.ts';
import { SignerKeys } from './keys.ts';
import { setColdAddress } from './repository.ts';
import { newMnemonic, readSeedFile, rootOf, writeSeedFile } from './seed.ts';
import { serveSigner } from './server.ts';

type Log = { info(m: string): void; warn(m: string): void };

/**
 * Opens the seed. In production the seed file and `SIGNER_KEY` must both be there (made offline with
 * `cli signer init`). Outside production a first start makes a seed and a key file beside it, so the demo
 * needs no setup; that key file is what `SIGNER_KEY` replaces in production.
 */
export async function openSeed(config: SignerConfig, log: Log): Promise<SignerKeys> {
  const exists = await access(config.seedFile).then(
    () => true,
    () => false,
  );
  let key = config.seedKey;
  const keyFile = path.join(path.dirname(config.seedFile), 'key');
  if (!key && !config.production) {
    await mkdir(path.dirname(keyFile), { recursive: true, mode: 0o700 });
    key = await readFile(keyFile, 'utf8').then(
      (text) => text.trim(),
      async () => {
        const made = randomBytes(32).toString('base64url');
        await writeFile(keyFile, `${made}\n`, { mode: 0o600, flag: 'wx' });
        return made;
      },
    );
  }
  if (!key) throw new Error('SIGNER_KEY is not set: the signer cannot open its seed');
  if (!exists) {
    if (config.production)
      throw new Error(
        `${config.seedFile} does not exist: create the seed offline with \`npm run cli signer init\``,
      );
    await writeSeedFile(config.seedFile, newMnemonic(), key);
    log.info(`signer: created a development seed in ${config.seedFile}`);
  }
  return new SignerKeys(rootOf(await readSeedFile(config.seedFile, key)));
}

/** Starts the signer: opens the seed, publishes the xpubs and cold addresses, and serves signing requests. */
export async function startSigner(config: SignerConfig, db: pg.Pool, log: Log) {
  const keys = await openSeed(config, log);
  await keys.publish(db);
  for (const [network, address] of config.coldAddresses) {
    await setColdAddress(db, network, address);
  }
  const served = await serveSigner(config, db, keys, log);
  log.info(`signer: listening on ${served.url}`);
  return served;
}
