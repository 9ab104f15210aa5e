import { describe, expect, it } from 'vitest';
import { parseMetrics, ratesOf } from '../../src/features/admin/AdminDashboard.tsx';

describe('the console dashboard', () => {
  it('reads the samples of the Prometheus text format, without comments or histogram buckets', () => {
    const text = [
      '# HELP exchange_ws_clients Websocket clients',
      '# TYPE exchange_ws_clients gauge',
      'exchange_ws_clients 3',
      'exchange_chain_height{network="tron-sim"} 120',
      'exchange_core_commit_seconds_bucket{le="0.001"} 7',
      'exchange_core_commit_seconds_sum 0.0125',
    ].join('\n');
    expect(parseMetrics(text)).toEqual([
      { name: 'exchange_ws_clients', labels: '', value: 3 },
      { name: 'exchange_chain_height', labels: '{network="tron-sim"}', value: 120 },
      { name: 'exchange_core_commit_seconds_sum', labels: '', value: 0.0125 },
    ]);
  });

  it('turns counter readings into per-second rates; a counter that went back (a restart) counts as zero', () => {
    expect(
      ratesOf([
        { at: 0, value: 100 },
        { at: 5000, value: 150 },
        { at: 10_000, value: 150 },
        { at: 15_000, value: 20 },
        { at: 20_000, value: 45 },
      ]),
    ).toEqual([10, 0, 0, 5]);
    expect(ratesOf([{ at: 0, value: 1 }])).toEqual([]);
  });
});
