/** An image whose relative path resolves against the API host and falls back to the default image. */
import { useState, type ImgHTMLAttributes } from 'react';
import { DEFAULT_IMAGE, resolveImage } from '../api/images';

export interface ImgProps extends Omit<ImgHTMLAttributes<HTMLImageElement>, 'src'> {
  src: string | null | undefined;
  alt: string;
}

export function Img({ src, alt, ...rest }: ImgProps) {
  const resolved = resolveImage(src);
  // Remember which source failed, so a new src gets its own chance to load.
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <img
      {...rest}
      alt={alt}
      src={failed === resolved ? DEFAULT_IMAGE : resolved}
      onError={() => setFailed(resolved)}
    />
  );
}
