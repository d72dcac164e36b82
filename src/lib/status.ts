/**
 * Record status labels (SPEC.md §4, plus cancelled, expired and refunded from API.md). The server sends status words ('under review', 'pending', ...); screens
 * show status.<key>. Unknown words pass through as they are rather than hiding a state the app does not know.
 */

export const STATUS_KEYS = {
  processing: 'status.processing',
  'in progress': 'status.inProgress',
  'under review': 'status.underReview',
  'pending audit': 'status.pendingAudit',
  submitting: 'status.submitting',
  uploading: 'status.uploading',
  withdrawing: 'status.withdrawing',
  submitted: 'status.submitted',
  pending: 'status.pending',
  passed: 'status.passed',
  rejected: 'status.rejected',
  success: 'status.success',
  failed: 'status.failed',
  finished: 'status.finished',
  ended: 'status.ended',
  unsettled: 'status.unsettled',
  frozen: 'status.frozen',
  // Beyond SPEC.md §4's list: API.md's cancelled orders and VIP expiries and refunds.
  cancelled: 'status.cancelled',
  expired: 'status.expired',
  refunded: 'status.refunded',
  // A taker order filled in part, the rest cancelled outside the price band (docs/TRADING.md "Fills").
  partial: 'status.partial',
} as const;

/** 'under_review', 'underReview' and 'Under review' all name the same status. */
function normalise(status: string): string {
  return status
    .trim()
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
}

export function statusKey(status: string): string | undefined {
  const word = normalise(status);
  return (STATUS_KEYS as Record<string, string>)[word];
}

/** The translated label, or the status itself when it is not one of SPEC.md §4's labels. */
export function statusLabel(status: string, t: (key: string) => string): string {
  const key = statusKey(status);
  return key ? t(key) : status;
}
