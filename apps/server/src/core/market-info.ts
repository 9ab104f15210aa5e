/** Market reference data as the core and the edges both need it. */
export interface MarketInfo {
  id: string;
  base: string;
  quote: string;
  pricePrecision: number;
  amountPrecision: number;
  /** Smallest order volume, a decimal string ("0.001"). */
  minAmount: string;
  basePrecision: number;
  quotePrecision: number;
}
