export { CHAIN_PARAMETERS } from './params.ts';
export { startTronSimulator, type TronSimulator, type TronSimulatorOptions } from './server.ts';
