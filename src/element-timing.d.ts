/** The Element Timing API's attribute (src/lib/first-data.ts), which React passes through as it is. */
import 'react';

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- merges with React's own declaration
  interface HTMLAttributes<T> {
    elementtiming?: string;
  }
}
