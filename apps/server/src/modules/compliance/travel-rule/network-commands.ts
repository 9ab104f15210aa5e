import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type pg from 'pg';
import type { TravelRuleNetworkDesk, TravelRuleSimBehaviour } from '../../../adapters/simulators.ts';
import type { TravelRuleConfig } from './config.ts';
import { depositSender, networkExists } from './incoming-repository.ts';
import { type IvmsPayload, vaspPerson } from './ivms.ts';

/** The `travel-rule` commands of the operator CLI (the simulator of the travel-rule network). */
export const TRAVEL_RULE_USAGE = `  travel-rule provider add <network> <address> <provider>
                            the simulated network says a sending address is held by a provider of the
                            directory (TRAVEL_RULE_PROVIDERS): deposits from it wait for the originator's record
  travel-rule provider remove <network> <address>
                            the address is no longer known as a provider's (a self-hosted wallet)
  travel-rule provider behave <provider> accept|refuse|timeout
                            how the provider answers the messages of our withdrawals (accept by default)
  travel-rule incoming record <network> <txid> <our-address> <provider> --originator "<last>[, <first>]"
                            [--account <sender account>] | --nameless | --file <ivms101.json>
                            the record a provider delivered for a transfer to one of our addresses: naming the
                            originator (credited), naming nobody (held after the window), or a whole IVMS 101 file
  travel-rule incoming remove <network> <txid> <our-address>
  travel-rule list          everything the simulator was told, and the messages it received per provider`;

/** What a command prints and its exit code. */
interface Outcome {
  ok: boolean;
  message: string;
}

const ADDRESS = /^[\x21-\x7e]{1,200}$/;
const BEHAVIOURS: readonly TravelRuleSimBehaviour[] = ['accept', 'refuse', 'timeout'];

/**
 * Runs a `travel-rule` command of the operator CLI; undefined when `argv` is not one. Exit code 0 on success, 1
 * on a refusal (an unknown network or provider, a malformed file: nothing is written), 2 on a usage error. Only
 * with the simulator (TRAVEL_RULE_PROTOCOL=simulator): a real travel-rule service keeps its own data. What the
 * network is told goes to the simulator's desk (`desk`, loaded only for a `travel-rule` command); the exchange's
 * own tables are only read, to check a network and find a deposit's sender.
 */
export async function travelRuleCommand(
  argv: string[],
  db: pg.Pool,
  config: Pick<TravelRuleConfig, 'protocol' | 'providers'>,
  desk: () => Promise<TravelRuleNetworkDesk>,
): Promise<number | undefined> {
  const [area, command, ...args] = argv;
  if (area !== 'travel-rule') return undefined;
  if (config.protocol !== 'simulator') {
    console.error('TRAVEL_RULE_PROTOCOL=http: the travel-rule service keeps its own data');
    return 1;
  }
  const outcome = await run(db, await desk(), config, command, args);
  if (!outcome) {
    console.error(TRAVEL_RULE_USAGE);
    return 2;
  }
  (outcome.ok ? console.log : console.error)(outcome.message);
  return outcome.ok ? 0 : 1;
}

async function run(
  db: pg.Pool,
  desk: TravelRuleNetworkDesk,
  config: Pick<TravelRuleConfig, 'providers'>,
  command: string | undefined,
  args: string[],
): Promise<Outcome | undefined> {
  const [sub, ...rest] = args;
  if (command === 'list' && args.length === 0)
    return { ok: true, message: JSON.stringify(await desk.contents(), null, 2) };
  if (command === 'provider' && sub === 'add' && rest.length === 3) {
    const [network, address, providerId] = rest as [string, string, string];
    const refused = (await checkNetwork(db, network, address)) ?? checkProvider(config, providerId);
    if (refused) return refused;
    await desk.attribute({ network, address, providerId });
    return { ok: true, message: `${network} ${address} is held by ${providerId}` };
  }
  if (command === 'provider' && sub === 'remove' && rest.length === 2) {
    const [network, address] = rest as [string, string];
    return (await desk.forgetAddress(network, address))
      ? { ok: true, message: `${network} ${address} is no longer known as a provider's` }
      : { ok: false, message: `${network} ${address} was not attributed to a provider` };
  }
  if (command === 'provider' && sub === 'behave' && rest.length === 2) {
    const [providerId, behaviour] = rest as [string, string];
    const refused = checkProvider(config, providerId);
    if (refused) return refused;
    if (!BEHAVIOURS.includes(behaviour as TravelRuleSimBehaviour))
      return { ok: false, message: `unknown behaviour ${behaviour} (${BEHAVIOURS.join(', ')})` };
    await desk.behave(providerId, behaviour as TravelRuleSimBehaviour);
    return { ok: true, message: `${providerId} will ${behaviour} the messages it receives` };
  }
  if (command === 'incoming' && sub === 'record' && rest.length >= 5)
    return recordCommand(db, desk, config, rest);
  if (command === 'incoming' && sub === 'remove' && rest.length === 3) {
    const [network, txid, address] = rest as [string, string, string];
    return (await desk.forgetIncoming({ network, txid, address }))
      ? { ok: true, message: `the record of ${txid} to ${address} is forgotten` }
      : { ok: false, message: `no record of ${txid} to ${address} on ${network}` };
  }
  return undefined;
}

/** `incoming record <network> <txid> <our-address> <provider> <how...>`. */
async function recordCommand(
  db: pg.Pool,
  desk: TravelRuleNetworkDesk,
  config: Pick<TravelRuleConfig, 'providers'>,
  rest: string[],
): Promise<Outcome | undefined> {
  const [network, txid, address, providerId, how, value, ...more] = rest as [
    string,
    string,
    string,
    string,
    string,
    string | undefined,
    ...string[],
  ];
  const refused =
    (await checkNetwork(db, network, address)) ??
    (ADDRESS.test(txid) ? undefined : { ok: false, message: `not a transaction id: ${txid}` }) ??
    checkProvider(config, providerId);
  if (refused) return refused;
  const provider = config.providers.find((p) => p.id === providerId) ?? { name: providerId, lei: null };
  let payload: unknown;
  if (how === '--file' && value && more.length === 0) {
    const read = await readPayload(value);
    if (!read.ok) return read;
    payload = read.payload;
  } else if (how === '--nameless' && value === undefined) {
    const account = await depositSender(db, { network, txid, address });
    payload = ivmsRecord(null, account ?? txid, address, provider);
  } else if (how === '--originator' && value?.trim()) {
    let account: string | null = null;
    if (more.length === 2 && more[0] === '--account') account = more[1] ?? null;
    else if (more.length > 0) return undefined;
    account ??= await depositSender(db, { network, txid, address });
    if (!account)
      return {
        ok: false,
        message: 'the chain names no sender for this transfer (or it is not seen yet): give --account',
      };
    payload = ivmsRecord(value, account, address, provider);
  } else {
    return undefined;
  }
  await desk.recordIncoming({ network, txid, address, providerId, payload });
  return {
    ok: true,
    message: `${providerId} delivered a record for ${txid} to ${address} on ${network}; the watcher asks for it at its next look`,
  };
}

/** A network the app knows, and a plausible address on it. */
async function checkNetwork(db: pg.Pool, network: string, address: string): Promise<Outcome | undefined> {
  if (!(await networkExists(db, network))) return { ok: false, message: `unknown network ${network}` };
  if (!ADDRESS.test(address)) return { ok: false, message: `not an address: ${address}` };
  return undefined;
}

/** A provider of the directory (TRAVEL_RULE_PROVIDERS). */
function checkProvider(config: Pick<TravelRuleConfig, 'providers'>, providerId: string): Outcome | undefined {
  if (config.providers.some((p) => p.id === providerId)) return undefined;
  return {
    ok: false,
    message: `unknown provider ${providerId} (the directory: ${config.providers.map((p) => p.id).join(', ')})`,
  };
}

/** A whole IVMS 101 record from a JSON file (an object; what it says is judged by the app when it asks). */
async function readPayload(
  file: string,
): Promise<{ ok: true; payload: unknown } | { ok: false; message: string }> {
  let text: string;
  try {
    // `npm run cli` runs in the repository's root: a relative path is the operator's, from where they typed it.
    text = await readFile(resolve(process.env.INIT_CWD ?? process.cwd(), file), 'utf8');
  } catch (err) {
    return { ok: false, message: `cannot read ${file}: ${(err as Error).message}` };
  }
  try {
    const payload: unknown = JSON.parse(text);
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
      return { ok: false, message: `${file} is not a JSON object (an IVMS 101 record)` };
    return { ok: true, payload };
  } catch {
    return { ok: false, message: `${file} is not JSON` };
  }
}

/**
 * The IVMS 101 record a sending provider delivers: the originator by name ("Last, First"; null: a record that
 * names nobody) and account, our customer's address as the beneficiary's account, and the provider itself.
 */
export function ivmsRecord(
  name: string | null,
  account: string,
  ourAddress: string,
  provider: { name: string; lei: string | null },
): Omit<IvmsPayload, 'beneficiaryVASP'> {
  const [last = '', first] = (name ?? '').split(',').map((part) => part.trim());
  return {
    originator: {
      originatorPersons: [
        {
          naturalPerson: {
            name: {
              nameIdentifier: last
                ? [
                    {
                      primaryIdentifier: last,
                      ...(first ? { secondaryIdentifier: first } : {}),
                      nameIdentifierType: 'LEGL',
                    },
                  ]
                : [],
            },
          },
        },
      ],
      accountNumber: [account],
    },
    beneficiary: { beneficiaryPersons: [], accountNumber: [ourAddress] },
    originatingVASP: { originatingVASP: vaspPerson(provider) },
  };
}
