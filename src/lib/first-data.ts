/**
 * The first real data of the first screens, named for the Element Timing API: the element holding the figure
 * carries `elementtiming="<name>"` and `npm run bench -- first-data` reads the browser's entries as the moment
 * the member has data in hand. Only an element holding a real figure carries a name (the browser reports an
 * element once, at its first paint). Screens write the names as literals typed by FirstDataName: a value
 * import of this module would make it a chunk of its own. docs/PWA.md "The data path and its budget".
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
