import { describe, expect, it } from 'vitest';
import { type Command, Engine, Rejection } from '../src/index.ts';
import { AT, fund, fundedEngine, limit, ok, rejects, testConfig } from './helpers.ts';

const setup = () => fundedEngine();

describe('order rejections change nothing', () => {
  const P = (over: Partial<Extract<Command, { type: 'PlaceOrder' }>>): Command => ({
    type: 'PlaceOrder',
    user: 1,
    market: 'btcusdt',
    side: 'buy',
    ordType: 'limit',
    price: 100n,
    volume: 10n,
    at: AT,
    ...over,
  });
  const cases: Array<[string, Command, string]> = [
    ['unknown market', P({ market: 'dogeusdt' }), Rejection.MarketNotFound],
    ['bad user', P({ user: -5 }), Rejection.InvalidUser],
    ['bad side', P({ side: 'long' as 'buy' }), Rejection.InvalidSide],
    ['bad type', P({ ordType: 'iceberg' as 'limit' }), Rejection.InvalidType],
    ['zero volume', P({ volume: 0n }), Rejection.NonPositiveVolume],
    ['negative volume', P({ volume: -3n }), Rejection.NonPositiveVolume],
    ['volume not bigint', P({ volume: 1 as unknown as bigint }), Rejection.InvalidVolumeOrPrice],
    ['price not bigint', P({ price: 1.5 as unknown as bigint }), Rejection.InvalidVolumeOrPrice],
    ['zero price', P({ price: 0n }), Rejection.NonPositivePrice],
    ['negative price', P({ price: -1n }), Rejection.NonPositivePrice],
    ['price above max', P({ price: 100_000_001n }), Rejection.PriceOutOfRange],
    ['limit without price', P({ price: undefined }), Rejection.MissingPrice],
    ['market with price', P({ ordType: 'market' }), Rejection.MarketOrderPrice],
    [
      'stop market with price',
      P({ ordType: 'stop_loss_order', stopPrice: 100n }),
      Rejection.MarketOrderPrice,
    ],
    ['stop without stop price', P({ ordType: 'stop_loss_limit' }), Rejection.MissingStopPrice],
    ['stop price zero', P({ ordType: 'take_profit_limit', stopPrice: 0n }), Rejection.NonPositiveStopPrice],
    [
      'stop price above max',
      P({ ordType: 'stop_loss_limit', stopPrice: 10n ** 9n }),
      Rejection.StopPriceOutOfRange,
    ],
    ['limit with stop price', P({ stopPrice: 100n }), Rejection.UnexpectedStopPrice],
    ['buy beyond balance', P({ price: 100_000_000n, volume: 10n ** 6n }), Rejection.InsufficientBalance],
    ['sell beyond balance', P({ side: 'sell', volume: 100_001n }), Rejection.InsufficientBalance],
    ['market buy, empty book', P({ ordType: 'market', price: undefined }), Rejection.InsufficientLiquidity],
    [
      'market sell, empty book',
      P({ side: 'sell', ordType: 'market', price: undefined }),
      Rejection.InsufficientLiquidity,
    ],
  ];
  for (const [name, cmd, code] of cases) {
    it(`${name} → ${code}`, () => {
      const e = setup();
      ok(e, limit(2, 'buy', 50n, 1n, 'ethusdt')); // some state to compare
      rejects(e, cmd, code);
    });
  }

  it('price below min and volume below min amount', () => {
    const cfg = testConfig();
    const m = cfg.markets[0];
    if (m === undefined) throw new Error('no market');
    cfg.markets[0] = { ...m, minPrice: 50n, minAmount: 10n };
    const e = new Engine(cfg);
    fund(e, 1, 'usdt', 10n ** 12n);
    rejects(e, P({ price: 49n }), Rejection.PriceOutOfRange);
    rejects(e, P({ volume: 9n }), Rejection.VolumeTooSmall);
    rejects(e, P({ ordType: 'stop_loss_limit', stopPrice: 49n }), Rejection.StopPriceOutOfRange);
    ok(e, P({ price: 50n, volume: 10n }));
  });

  it('a market buy needing more than the balance is refused', () => {
    const e = setup();
    ok(e, limit(2, 'sell', 100_000_000n, 100_000n));
    rejects(e, P({ ordType: 'market', price: undefined, volume: 100_000n }), Rejection.InsufficientBalance);
  });

  it('unknown command type and bad time', () => {
    const e = setup();
    rejects(e, { type: 'Nope', at: AT } as unknown as Command, Rejection.InvalidCommand);
    rejects(e, { ...limit(1, 'buy', 100n, 1n), at: Number.NaN }, Rejection.InvalidCommand);
  });

  it('echoes ref on accepted and rejected commands', () => {
    const e = setup();
    expect(e.apply({ ...limit(1, 'buy', 100n, 1n), ref: 'a' }).ref).toBe('a');
    expect(e.apply({ ...limit(1, 'buy', 0n, 1n), ref: 'b' }).ref).toBe('b');
  });
});
