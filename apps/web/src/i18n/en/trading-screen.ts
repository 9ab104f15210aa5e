/** The trading screen's parts added by issue 32: book grouping and spread, depth chart, market columns, phone tabs. */
export const tradingScreen = {
  'trading.book.grouping': 'Group prices by',
  'trading.book.mid': 'Mid price',
  'trading.book.spread': 'Spread {{spread}} ({{percent}} %)',
  'trading.book.pickHint':
    'Choose a level to use its price in the order form; with Shift, also the amount up to it. Arrow keys move between levels.',
  'trading.book.level': '{{price}}, {{amount}} {{unit}}',
};
