/** Inline SVG icons (no icon font, no request). Decorative: the label beside them carries the meaning. */
import type { ReactNode } from 'react';

export type IconName =
  | 'home'
  | 'market'
  | 'trade'
  | 'finance'
  | 'assets'
  | 'back'
  | 'deposit'
  | 'withdraw'
  | 'transfer'
  | 'vip'
  | 'more'
  | 'chevron'
  | 'globe'
  | 'search';

const PATHS: Record<IconName, ReactNode> = {
  home: <path d="M3 11l9-7 9 7v9a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z" />,
  market: <path d="M4 19V5M4 19h16M8 15l4-5 3 3 5-6" />,
  trade: <path d="M7 4v16M7 4L3 8M7 4l4 4M17 20V4M17 20l-4-4M17 20l4-4" />,
  finance: (
    <>
      <circle cx="12" cy="12" r="8" />
      <path d="M12 7v10M9.5 9.5c0-1 1-1.5 2.5-1.5s2.5.7 2.5 1.8c0 2.4-5 1.4-5 4 0 1 1 1.7 2.5 1.7s2.5-.6 2.5-1.6" />
    </>
  ),
  assets: (
    <>
      <rect x="3" y="6" width="18" height="13" rx="2" />
      <path d="M3 10h18M16 14.5h2" />
    </>
  ),
  back: <path d="M15 5l-7 7 7 7" />,
  deposit: <path d="M12 4v12M7 11l5 5 5-5M5 20h14" />,
  withdraw: <path d="M12 16V4M7 9l5-5 5 5M5 20h14" />,
  transfer: <path d="M4 8h14l-4-4M20 16H6l4 4" />,
  vip: <path d="M4 8l4 4 4-7 4 7 4-4-2 11H6z" />,
  more: (
    <>
      <circle cx="6" cy="12" r="1.5" />
      <circle cx="12" cy="12" r="1.5" />
      <circle cx="18" cy="12" r="1.5" />
    </>
  ),
  chevron: <path d="M9 5l7 7-7 7" />,
  search: (
    <>
      <circle cx="11" cy="11" r="6.5" />
      <path d="M16 16l4.5 4.5" />
    </>
  ),
  globe: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3c2.4 2.6 3.6 5.6 3.6 9s-1.2 6.4-3.6 9c-2.4-2.6-3.6-5.6-3.6-9S9.6 5.6 12 3z" />
    </>
  ),
};

export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {PATHS[name]}
    </svg>
  );
}
