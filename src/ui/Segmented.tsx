/** A small choice of two to four values as pressed buttons in a labelled group (keyboard: Tab and Space). */
import type { ReactNode } from 'react';

export interface SegmentedProps<T extends string> {
  label: string;
  value: T;
  onChange: (value: T) => void;
  options: { value: T; label: ReactNode; tone?: 'up' | 'down' }[];
}

export function Segmented<T extends string>({ label, value, onChange, options }: SegmentedProps<T>) {
  return (
    <div className="segmented" role="group" aria-label={label}>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          className={`segment${o.tone ? ` segment-${o.tone}` : ''}`}
          aria-pressed={value === o.value}
          onClick={() => onChange(o.value)}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
