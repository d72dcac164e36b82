/** Record lists load this many per page (API.md list params), so "load more" is reachable on a phone. */
export const PAGE_SIZE = 10;
