/**
 * A label whose box keeps the width of the longest of the texts it can show (`alternatives`), so a status
 * that flips between them (online and syncing, live and reconnecting) never moves what stands beside it:
 * no layout shift, no jitter. The longest text sizes an invisible pseudo-element in the same grid cell, so
 * it is neither in the text content nor read aloud.
 */
export function StableLabel({ text, alternatives }: { text: string; alternatives: readonly string[] }) {
  const sizer = alternatives.reduce((a, b) => (b.length > a.length ? b : a), text);
  return (
    <span className="stable-label" data-sizer={sizer}>
      <span>{text}</span>
    </span>
  );
}
