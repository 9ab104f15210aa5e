/**
 * Where a running app serves its development nodes (`chain_endpoints`). The SQL lives in the networks' repository;
 * this module keeps the names other modules import.
 */
export { recordEndpoint, recordedEndpoint } from './networks-repository.ts';
