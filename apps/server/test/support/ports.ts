/** Tests and benchmarks take their free ports where the app does. */
export { freePort } from '../../src/net/free-port.ts';
