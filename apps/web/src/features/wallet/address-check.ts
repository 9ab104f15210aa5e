import { type AddressKind, BTC_NETWORKS, splitMemo, validateAddress } from '@exchange/shared';

/** The address format of each network protocol the exchange lists. */
const ADDRESS_KIND_BY_PROTOCOL: Readonly<Record<string, AddressKind>> = {
  TRX: 'tron',
  TRC20: 'tron',
  ETH: 'evm',
  ERC20: 'evm',
  BTC: 'btc',
};

/**
 * Whether a beneficiary address (memo after `?dt=` allowed) can be one of a network with `protocol`, by the
 * checksum checks the server runs. The page cannot tell which Bitcoin network a chain runs, so a Bitcoin address
 * of any network passes here and the server decides; an unknown protocol is left to the server too.
 */
export function addressFitsProtocol(protocol: string, address: string): boolean {
  const kind = ADDRESS_KIND_BY_PROTOCOL[protocol.toUpperCase()];
  if (!kind) return true;
  return validateAddress(kind, splitMemo(address).address, { btcNetworks: BTC_NETWORKS }) !== null;
}
