/**
 * The first real data of the first screens, named for the Element Timing API (issue 25): the element that
 * holds the figure carries `elementtiming="<name>"`, and the browser reports when it first painted
 * (PerformanceElementTiming). `npm run bench -- first-data` (bench/first-data.bench.ts) reads these entries
 * as the moment the member has data in hand, so the bench and a trace agree on what "data" is.
 * Only an element holding a real figure carries a name: a loading row or a "--" never does (the browser
 * reports an element once, at its first paint, so a placeholder carrying the name would report the
 * placeholder's paint).
 * The screens write the names as literals (Amount's `timing` prop is typed by FirstDataName): a value import of
 * this module from several screens would make it a chunk of its own, one more request on the data path.
 */
export const FIRST_DATA = {
  /** The latest price of the first quote row (/home's quotes card, /market's list). */
  quoteRow: 'quote-row',
  /** The total assets figure (/user). */
  balance: 'balance',
  /** The amount of the first record row (/order/transferRecord). */
  recordRow: 'record-row',
} as const;

export type FirstDataName = (typeof FIRST_DATA)[keyof typeof FIRST_DATA];
