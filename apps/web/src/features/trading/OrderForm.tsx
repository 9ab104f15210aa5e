import {
  fieldErrors,
  formatUnits,
  marketOrderSchema,
  type OrdType,
  PRICED_ORD_TYPES,
  STOP_ORD_TYPES,
  TIME_IN_FORCE,
  type TimeInForce,
} from '@exchange/shared';
import {
  Button,
  Checkbox,
  Grid,
  Group,
  NativeSelect,
  Paper,
  SegmentedControl,
  Slider,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ApiError, api } from '../../api/client.ts';
import { toast } from '../../app/toast.ts';
import { Amount, fixed, multiply, SCALE, units } from '../../components/format.tsx';
import { useCurrencies } from '../wallet/api.ts';
import { type Balance, KEYS, type Market, type Order, useBalances, useFeeRates } from './api.ts';
import type { BookPick } from './book-view.ts';
import { type FeeRates, feePreview, ratePercent } from './fees.ts';

/** Open orders refresh this long after a submission (docs/trading.md#states, #constants). */
export const ORDER_REFRESH_MS = 500;
const STEPS = [0, 25, 50, 75, 100];
const TYPES: OrdType[] = ['limit', 'market', 'stop_loss_limit', 'take_profit_limit', 'stop_loss_order'];
/** The form's fields, named as in the order payload. */
type Field = 'volume' | 'price' | 'stop_price';
/** The options of a limit order, shared by both sides of the form. */
interface LimitOptions {
  timeInForce: TimeInForce;
  postOnly: boolean;
}
/** The options as the order payload carries them: only what differs from the defaults (gtc, not post-only). */
export function limitOptionFields(options: LimitOptions): { time_in_force?: TimeInForce; post_only?: true } {
  return {
    ...(options.timeInForce === 'gtc' ? {} : { time_in_force: options.timeInForce }),
    ...(options.postOnly ? { post_only: true as const } : {}),
  };
}

/** The order error in the spec's words, with the market's minimum and precisions filled in. */
export function orderErrorMessage(code: string, market: Market): string {
  const params = {
    min: market.min_amount,
    n: code.includes('price') ? market.price_precision : market.amount_precision,
  };
  return i18next.exists(code) ? i18next.t(code, params) : i18next.t('server.error');
}

/**
 * What the answer to a placement says happened: an order the engine cancelled at once with nothing filled was not
 * placed, so say why (it met only the user's own orders, or there was nothing to fill it).
 */
export function placementOutcome(order: Pick<Order, 'state' | 'executed_volume' | 'cancel_reason'>): string {
  if (order.state !== 'cancel' || units(order.executed_volume) !== 0n) return 'trading.form.placed';
  if (order.cancel_reason === 'self_trade') return 'trading.form.selfTrade';
  if (order.cancel_reason === 'fill_or_kill') return 'trading.form.fillOrKill';
  if (order.cancel_reason === 'post_only') return 'trading.form.postOnlyTaken';
  return 'trading.form.unfilled';
}

/** Digits and at most one dot; too many decimals are let through so the field can say why it is refused. */
const accepts = (text: string) => /^\d*\.?\d*$/.test(text);

/** The available balance of a currency; undefined until the balances have loaded (a "0" then would be untrue). */
const available = (balances: Balance[] | undefined, currency: string) =>
  balances ? (balances.find((b) => b.currency === currency)?.balance ?? '0') : undefined;

/** The best ask and bid of the market (the ticker's `sell` and `buy`), to tell whether an order would cross. */
interface Best {
  ask?: string;
  bid?: string;
}

interface SideProps {
  side: 'buy' | 'sell';
  market: Market;
  ordType: OrdType;
  /** Undefined while the balances load. */
  balance: string | undefined;
  lastPrice: string;
  best: Best;
  rates: FeeRates | undefined;
  /** The precision of the base and quote currencies: fees are charged in their smallest units. */
  precisions: { base: number; quote: number };
  /** Time in force and post-only, sent with limit orders only. */
  options: LimitOptions;
  /** A level picked in the order book (issue 32). */
  picked?: BookPick;
}

/** One side of the form: its own inputs and its own loading flag. */
function SideForm({
  side,
  market,
  ordType,
  balance,
  lastPrice,
  best,
  rates,
  precisions,
  options,
  picked,
}: SideProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [price, setPrice] = useState('');
  const [stop, setStop] = useState('');
  const [amount, setAmount] = useState('');
  const [percent, setPercent] = useState(0);
  const [loading, setLoading] = useState(false);
  // Issue 32: a level picked in the order book fills the price, and the amount when it comes with one.
  useEffect(() => {
    if (!picked) return;
    setPrice(picked.price);
    if (picked.amount !== undefined) setAmount(picked.amount);
  }, [picked]);
  // Messages belong to the order type they were found for: another type asks for other fields.
  const [checked, setChecked] = useState<{ type: OrdType; errors: Partial<Record<Field, string>> }>({
    type: ordType,
    errors: {},
  });
  const errors = checked.type === ordType ? checked.errors : {};
  const setErrors = (next: Partial<Record<Field, string>>) => setChecked({ type: ordType, errors: next });
  const base = market.base_unit.toUpperCase();
  const quote = market.quote_unit.toUpperCase();
  const priced = PRICED_ORD_TYPES.includes(ordType);
  const stopped = STOP_ORD_TYPES.includes(ordType);
  // A stop-market order is estimated (and, buying, held) at its stop price.
  const effectivePrice = priced ? price : stopped ? stop : lastPrice;
  const total = fixed(multiply(effectivePrice, amount), market.price_precision + market.amount_precision);
  // What the server will charge: taker when the order crosses the book, maker when it rests, rounded up.
  const preview =
    rates &&
    feePreview({
      side,
      ordType,
      price: effectivePrice,
      amount,
      total,
      best,
      rates,
      base: { id: market.base_unit, precision: precisions.base },
      quote: { id: market.quote_unit, precision: precisions.quote },
    });

  const pick = (value: number) => {
    setPercent(value);
    const ap = market.amount_precision;
    const share = (units(balance ?? '0') * BigInt(value)) / 100n;
    if (side === 'sell') return setAmount(formatUnits(share / 10n ** BigInt(SCALE - ap), ap));
    const p = units(effectivePrice);
    if (p > 0n) setAmount(formatUnits((share * 10n ** BigInt(ap)) / p, ap));
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    // Empty fields are left out, so a missing price reads "Please enter a price".
    const input = {
      market: market.id,
      side,
      ord_type: ordType,
      volume: amount,
      ...(priced && price ? { price } : {}),
      ...(stopped && stop ? { stop_price: stop } : {}),
      ...(ordType === 'limit' ? limitOptionFields(options) : {}),
    };
    const parsed = marketOrderSchema(market).safeParse(input);
    if (!parsed.success) {
      const byField = fieldErrors(parsed.error);
      const shown: Partial<Record<Field, string>> = {};
      for (const field of ['volume', 'price', 'stop_price'] as const) {
        const code = byField[field];
        if (code) shown[field] = orderErrorMessage(code, market);
      }
      setErrors(shown);
      // Not a field of this form (cannot happen from its controls): say it the server's way.
      if (Object.keys(shown).length === 0)
        toast.error(orderErrorMessage(parsed.error.issues[0]?.message ?? '', market));
      return;
    }
    setErrors({});
    setLoading(true);
    try {
      const order = await api<Order>('peatio', '/market/orders', { method: 'POST', body: parsed.data });
      const outcome = placementOutcome(order);
      if (outcome === 'trading.form.placed') toast.success(t(outcome));
      else toast.error(t(outcome));
      setAmount('');
      setPercent(0);
      window.setTimeout(() => {
        void client.invalidateQueries({ queryKey: KEYS.orders });
        // The stream keeps balances live; this read also repairs them if a stream message was missed.
        void client.invalidateQueries({ queryKey: KEYS.balances });
      }, ORDER_REFRESH_MS);
    } catch (err) {
      toast.error(
        err instanceof ApiError ? orderErrorMessage(err.errors[0] ?? '', market) : t('server.error'),
      );
    } finally {
      setLoading(false);
    }
  };

  const input = (field: Field, label: string, value: string, set: (v: string) => void, unit: string) => (
    <TextInput
      size="xs"
      label={label}
      value={value}
      inputMode="decimal"
      autoComplete="off"
      error={errors[field]}
      data-field={field}
      rightSection={<Text size="xs">{unit}</Text>}
      rightSectionWidth={48}
      onChange={(e) => {
        const next = e.currentTarget.value;
        if (!accepts(next)) return;
        set(next);
        if (errors[field]) setErrors({ ...errors, [field]: undefined });
      }}
    />
  );

  return (
    <form onSubmit={submit} noValidate data-testid={`${side}-form`}>
      <Stack gap={6}>
        <Group justify="space-between">
          <Text size="xs" c="dimmed">
            {t('trading.form.available')}
          </Text>
          <Text size="xs" data-testid={`${side}-available`} data-value={balance}>
            {balance === undefined ? '…' : <Amount value={balance} />} {side === 'buy' ? quote : base}
          </Text>
        </Group>
        {stopped && input('stop_price', t('trading.form.stopPrice'), stop, setStop, quote)}
        {priced && input('price', t('trading.form.price'), price, setPrice, quote)}
        {input('volume', t('trading.form.amount'), amount, setAmount, base)}
        <Slider
          size="sm"
          value={percent}
          onChange={pick}
          step={25}
          marks={STEPS.map((s) => ({ value: s, label: `${s}%` }))}
          label={(v) => `${v}%`}
          thumbLabel={t('trading.form.percent')}
          mb="md"
          // Room for the 0% and 100% marks, which would otherwise run into the other side's form.
          mx="sm"
        />
        <Group justify="space-between">
          <Text size="xs" c="dimmed">
            {t('trading.form.total')}
          </Text>
          <Text size="xs">{`${total} ${quote}`}</Text>
        </Group>
        <Group justify="space-between">
          <Text size="xs" c="dimmed">
            {t('trading.form.fee')}
          </Text>
          <Text size="xs" data-testid={`${side}-fee`}>
            {preview
              ? `${preview.amount} ${preview.currency} (${t(`trading.form.${preview.role}`)} ${ratePercent(preview.rate)})`
              : '—'}
          </Text>
        </Group>
        <Button type="submit" color={side === 'buy' ? 'teal' : 'red'} loading={loading}>
          {t(side === 'buy' ? 'trading.form.buy' : 'trading.form.sell', { unit: base })}
        </Button>
      </Stack>
    </form>
  );
}

/** Buy and sell forms side by side, with the order type shared. */
export function OrderForm({
  market,
  lastPrice,
  best,
  picked,
}: {
  market: Market;
  lastPrice: string;
  best: Best;
  /** Issue 32: the level last picked in the order book, handed to both sides. */
  picked?: BookPick;
}) {
  const { t } = useTranslation();
  const [ordType, setOrdType] = useState<OrdType>('limit');
  const [options, setOptions] = useState<LimitOptions>({ timeInForce: 'gtc', postOnly: false });
  const { data: balances } = useBalances();
  const rates = useFeeRates(market.id);
  const { data: currencies } = useCurrencies();
  const precisionOf = (id: string, fallback: number) =>
    currencies?.find((c) => c.id === id)?.precision ?? fallback;
  const precisions = {
    base: precisionOf(market.base_unit, market.amount_precision),
    quote: precisionOf(market.quote_unit, market.price_precision + market.amount_precision),
  };
  const common = { market, ordType, lastPrice, best, rates, precisions, options, picked };
  return (
    <Paper withBorder p="xs">
      {rates && (
        <Text size="xs" c="dimmed" mb={4} data-testid="fee-rates">
          {t('trading.form.rates', { maker: ratePercent(rates.maker), taker: ratePercent(rates.taker) })}
        </Text>
      )}
      <SegmentedControl
        size="xs"
        mb="xs"
        data-testid="order-type"
        aria-label={t('trading.form.orderType')}
        value={ordType}
        onChange={(v) => setOrdType(v as OrdType)}
        data={TYPES.map((type) => ({ value: type, label: t(`trading.type.${type}`) }))}
      />
      {ordType === 'limit' && (
        <Group gap="md" mb="xs" align="flex-end" data-testid="limit-options">
          <NativeSelect
            size="xs"
            label={t('trading.form.timeInForce')}
            data-testid="time-in-force"
            value={options.timeInForce}
            // A post-only order must be able to rest: it is GTC only.
            disabled={options.postOnly}
            onChange={(e) => setOptions({ ...options, timeInForce: e.currentTarget.value as TimeInForce })}
            data={TIME_IN_FORCE.map((tif) => ({ value: tif, label: t(`trading.tif.${tif}`) }))}
          />
          <Checkbox
            size="xs"
            label={t('trading.form.postOnly')}
            title={t('trading.form.postOnlyHint')}
            aria-description={t('trading.form.postOnlyHint')}
            data-testid="post-only"
            checked={options.postOnly}
            disabled={options.timeInForce !== 'gtc'}
            onChange={(e) => setOptions({ ...options, postOnly: e.currentTarget.checked })}
          />
        </Group>
      )}
      <Grid>
        <Grid.Col span={6}>
          <SideForm
            key={`buy-${market.id}`}
            side="buy"
            balance={available(balances, market.quote_unit)}
            {...common}
          />
        </Grid.Col>
        <Grid.Col span={6}>
          <SideForm
            key={`sell-${market.id}`}
            side="sell"
            balance={available(balances, market.base_unit)}
            {...common}
          />
        </Grid.Col>
      </Grid>
    </Paper>
  );
}

/** In place of the order form for a visitor: no balances, no orders, a way to log in and come back. */
export function VisitorOrderForm() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <Paper withBorder p="md" data-testid="visitor-order-form">
      <Stack align="center" gap="xs">
        <Text size="sm" c="dimmed">
          {t('trading.form.loginHint')}
        </Text>
        <Group>
          <Button component={Link} to="/login" state={{ from: location.pathname }}>
            {t('trading.form.loginToTrade')}
          </Button>
          <Button component={Link} to="/register" variant="default">
            {t('trading.form.register')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
