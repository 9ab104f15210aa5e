import { COIN_ICONS, coinIconPath } from '@exchange/shared';
import type { ComboboxItem } from '@mantine/core';
import { Group } from '@mantine/core';
import { useState } from 'react';

/**
 * A coin's icon by ticker (docs/wallet.md#constants): the currency's `icon_url`, else the app's own icon of the ticker,
 * else a generic coin. Decorative: the ticker is always written next to it.
 */
export function CoinIcon({ ticker, url, size = 20 }: { ticker: string; url?: string | null; size?: number }) {
  const [failed, setFailed] = useState(false);
  const src = failed ? coinIconPath(COIN_ICONS.generic) : url || coinIconPath(ticker);
  return (
    <img
      src={src}
      alt=""
      aria-hidden="true"
      width={size}
      height={size}
      data-coin-icon={ticker.toLowerCase()}
      style={{ flex: 'none', verticalAlign: 'middle' }}
      onError={() => setFailed(true)}
    />
  );
}

/** A ticker with its icon in front, for table cells and labels. */
export function CoinLabel({
  ticker,
  url,
  children,
}: {
  ticker: string;
  url?: string | null;
  children: React.ReactNode;
}) {
  return (
    <Group gap={6} wrap="nowrap" component="span" style={{ display: 'inline-flex' }}>
      <CoinIcon ticker={ticker} url={url} />
      {children}
    </Group>
  );
}

/**
 * What a Mantine Select of coins needs to show icons: the chosen coin's icon in the field, each option's in the
 * list. The options' values are tickers.
 */
export function coinSelectIcons(value: string | null | undefined, urls: Record<string, string | null> = {}) {
  return {
    leftSection: value ? <CoinIcon ticker={value} url={urls[value]} /> : undefined,
    renderOption: ({ option }: { option: ComboboxItem }) => (
      <CoinLabel ticker={option.value} url={urls[option.value]}>
        {option.label}
      </CoinLabel>
    ),
  };
}
