/**
 * Rejection codes returned by the engine, named in Peatio/OpenDAX style (`<area>.<entity>.<reason>`).
 * A rejected command changes nothing: no balance, order, counter or price moves.
 */
export const Rejection = {
  /** The command is malformed: unknown `type`, or a field has the wrong JS type (e.g. a number for a bigint). */
  InvalidCommand: 'engine.command.invalid',
  /** `user` is not a safe non-negative integer. */
  InvalidUser: 'engine.user.invalid',

  /** PlaceOrder/Swap: the market id is not configured. */
  MarketNotFound: 'market.market.doesnt_exist',
  /** PlaceOrder/Swap: the market exists but its state is `disabled`. */
  MarketDisabled: 'market.market.not_enabled',
  /** PlaceOrder: `side` is neither `buy` nor `sell`. */
  InvalidSide: 'market.order.invalid_side',
  /** PlaceOrder: `ordType` is not one of the five order types. */
  InvalidType: 'market.order.invalid_type',
  /** PlaceOrder: `volume` is zero or negative. */
  NonPositiveVolume: 'market.order.non_positive_volume',
  /** PlaceOrder: `price` is zero or negative. */
  NonPositivePrice: 'market.order.non_positive_price',
  /** PlaceOrder: a limit-priced order (`limit`, `stop_loss_limit`, `take_profit_limit`) has no `price`. */
  MissingPrice: 'market.order.missing_price',
  /** PlaceOrder: a `market` or `stop_loss_order` order carries a `price`. */
  MarketOrderPrice: 'market.order.market_order_price',
  /** PlaceOrder: `price` is outside the market's `[minPrice, maxPrice]`. */
  PriceOutOfRange: 'market.order.invalid_price',
  /** PlaceOrder: `volume` is below the market's `minAmount` ("Amount must be greater than {min}"). */
  VolumeTooSmall: 'market.order.invalid_volume',
  /** PlaceOrder: `price` or `volume` is not an integer (bigint) number of ticks/steps. */
  InvalidVolumeOrPrice: 'market.order.invalid_volume_or_price',
  /** PlaceOrder: a stop order has no `stopPrice`. */
  MissingStopPrice: 'market.order.missing_stop_price',
  /** PlaceOrder: `stopPrice` is zero or negative. */
  NonPositiveStopPrice: 'market.order.non_positive_stop_price',
  /** PlaceOrder: `stopPrice` is outside the market's `[minPrice, maxPrice]`. */
  StopPriceOutOfRange: 'market.order.invalid_stop_price',
  /** PlaceOrder: `stopPrice` given on a `limit` or `market` order. */
  UnexpectedStopPrice: 'market.order.unexpected_stop_price',
  /** PlaceOrder: `timeInForce` is not one of `gtc`, `ioc`, `fok`. */
  InvalidTimeInForce: 'market.order.invalid_time_in_force',
  /** PlaceOrder: a `market` order carries a `timeInForce` (it fills what the book has and cancels the rest). */
  MarketOrderTimeInForce: 'market.order.market_order_time_in_force',
  /** PlaceOrder: a stop order (`stop_loss_limit`, `take_profit_limit`, `stop_loss_order`) with `ioc` or `fok`. */
  StopOrderTimeInForce: 'market.order.stop_order_time_in_force',
  /** PlaceOrder: `postOnly` is not a boolean. */
  InvalidPostOnly: 'market.order.invalid_post_only',
  /** PlaceOrder: `postOnly` on an order that is not a `limit` order. */
  PostOnlyNotLimit: 'market.order.post_only_not_limit',
  /** PlaceOrder: `postOnly` with `ioc` or `fok` (a post-only order must be able to rest). */
  PostOnlyTimeInForce: 'market.order.post_only_time_in_force',
  /** PlaceOrder: available balance is below the amount the order must lock. */
  InsufficientBalance: 'market.account.insufficient_balance',
  /** PlaceOrder: a market order finds nothing on the opposite side of the book. */
  InsufficientLiquidity: 'market.order.insufficient_market_liquidity',
  /** CancelOrder: no open order with this id belongs to this user (unknown, closed, or someone else's). */
  OrderNotFound: 'market.order.doesnt_exist',

  /** Wallet commands: the currency id is not configured. */
  CurrencyNotFound: 'account.currency.doesnt_exist',
  /** Credit/Debit/liquidity: the amount is zero or negative. */
  NonPositiveAmount: 'account.balance.non_positive_amount',
  /** Debit: available balance is below the amount. */
  InsufficientFunds: 'account.balance.insufficient_balance',
  /** Credit/Debit: `kind` is not an accepted value. */
  InvalidKind: 'account.balance.invalid_kind',
  /** HoldWithdrawal: a withdrawal with this id is already held. */
  WithdrawDuplicate: 'account.withdraw.duplicate_id',
  /** SettleWithdrawal/ReleaseWithdrawal: no held withdrawal with this id. */
  WithdrawNotFound: 'account.withdraw.doesnt_exist',
  /** HoldWithdrawal: available balance is below the amount. */
  WithdrawInsufficientBalance: 'account.withdraw.insufficient_balance',
  /** HoldWithdrawal: the amount is zero or negative. */
  WithdrawNonPositiveAmount: 'account.withdraw.non_positive_amount',
  /** SettleWithdrawal: the fee is negative or larger than the held amount. */
  WithdrawInvalidFee: 'account.withdraw.invalid_fee',
  /** InternalTransfer: sender and receiver are the same user. */
  TransferToSelf: 'account.internal_transfer.can_not_transfer_to_yourself',
  /** InternalTransfer: the sender's available balance is below the amount. */
  TransferInsufficientBalance: 'account.internal_transfer.insufficient_balance',
  /** InternalTransfer: the amount is zero or negative. */
  TransferNonPositiveAmount: 'account.internal_transfer.non_positive_amount',

  /** Swap: `from` and `to` are the same currency. */
  SwapSameCurrency: 'account.swap.same_currency',
  /** Swap in `book` mode: no market trades `from` against `to`. */
  SwapMarketNotFound: 'account.swap.market_not_found',
  /** Swap: the amount is zero or negative. */
  SwapNonPositiveAmount: 'account.swap.non_positive_amount',
  /** Swap at a quoted price: the price is zero or negative. */
  SwapInvalidPrice: 'account.swap.invalid_price',
  /** Swap: `feePpm` is outside `[0, 1_000_000]`. */
  SwapInvalidFee: 'account.swap.invalid_fee',
  /** Swap: available balance of `from` is below the amount. */
  SwapInsufficientBalance: 'account.swap.insufficient_balance',
  /** Swap: the book or the liquidity account cannot deliver anything (or not enough, for a quoted price). */
  SwapInsufficientLiquidity: 'account.swap.insufficient_liquidity',
  /** Swap: the amount would receive nothing after rounding and fee, or is below the market's minimum. */
  SwapAmountTooSmall: 'account.swap.amount_too_small',
  /** Swap in `book` mode selling the base currency: the amount is not a whole number of amount steps. */
  SwapInvalidPrecision: 'account.swap.invalid_precision',

  /** CardTopUp/CardFee/CardRefund: the amount is zero or negative. */
  CardNonPositiveAmount: 'account.card.non_positive_amount',
  /** CardTopUp: the fee is negative. */
  CardInvalidFee: 'account.card.invalid_fee',
  /** CardTopUp/CardFee: available balance is below amount plus fee ("Insufficient balance"). */
  CardInsufficientBalance: 'account.card.insufficient_balance',
  /** CardRefund: the card float account holds less than the amount. */
  CardInsufficientFloat: 'account.card.insufficient_float',

  /** DrainLiquidity: the swap liquidity account holds less than the amount. */
  LiquidityInsufficient: 'admin.liquidity.insufficient',
  /** SetFeeRule: a rate is outside `[0, 1_000_000]` ppm. */
  InvalidFeeRate: 'admin.fee.invalid_rate',
  /** SetTradingLevel/SetFeeRule: the level is not a safe non-negative integer. */
  InvalidTradingLevel: 'admin.trading_level.invalid',
  /** SetMarketState/UpdateMarket: the state is neither `enabled` nor `disabled`. */
  InvalidMarketState: 'admin.market.invalid_state',
  /** AddMarket: a market with this id already exists. */
  MarketExists: 'admin.market.exists',
  /**
   * AddMarket/UpdateMarket: the config breaks a market rule (unknown or equal currencies, precisions beyond the
   * currencies', non-positive minimums, max price below min price, a field of the wrong JS type).
   */
  InvalidMarket: 'admin.market.invalid',
} as const;

/** Any rejection code the engine can return. */
export type RejectionCode = (typeof Rejection)[keyof typeof Rejection];
