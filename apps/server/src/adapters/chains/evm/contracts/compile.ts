import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** What the devnet needs to deploy a contract: its ABI and creation bytecode, and which compiler made them. */
export interface ContractArtifact {
  contract: string;
  compiler: string;
  abi: unknown[];
  bytecode: string;
}

const SOURCE = 'TestUSDT.sol';
const CONTRACT = 'TestUSDT';
const ARTIFACT_URL = new URL('./TestUSDT.json', import.meta.url);

interface SolcOutput {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
}

/**
 * Compiles TestUSDT.sol with solc-js from npm (no compiler download: the machine may be offline).
 * Deterministic for a given source and compiler version, so the committed TestUSDT.json can be checked against it.
 * solc is imported lazily: loading its WebAssembly takes seconds and the devnet only needs the artifact.
 */
export async function compileTestUsdt(): Promise<ContractArtifact> {
  const { default: solc } = await import('solc');
  const source = await readFile(new URL(`./${SOURCE}`, import.meta.url), 'utf8');
  const input = {
    language: 'Solidity',
    sources: { [SOURCE]: { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { [SOURCE]: { [CONTRACT]: ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const compiled = output.contracts?.[SOURCE]?.[CONTRACT];
  if (!compiled) throw new Error(`solc produced no ${CONTRACT}`);
  return {
    contract: CONTRACT,
    compiler: `solc ${solc.version()}`,
    abi: compiled.abi,
    bytecode: `0x${compiled.evm.bytecode.object}`,
  };
}

/** The artifact as committed, formatted the way `writeArtifact` writes it. */
export function formatArtifact(artifact: ContractArtifact): string {
  return `${JSON.stringify(artifact, null, 2)}\n`;
}

/** Regenerates TestUSDT.json: `npm run contracts` after editing TestUSDT.sol. */
async function writeArtifact(): Promise<void> {
  await writeFile(ARTIFACT_URL, formatArtifact(await compileTestUsdt()));
  console.log(`wrote ${fileURLToPath(ARTIFACT_URL)}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await writeArtifact();
