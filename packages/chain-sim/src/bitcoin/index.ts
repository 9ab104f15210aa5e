export { type BitcoinSimulator, type BitcoinSimulatorOptions, startBitcoinSimulator } from './server.ts';
