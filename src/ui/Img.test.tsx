import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { DEFAULT_IMAGE } from '../api/images';
import { Img } from './Img';

afterEach(cleanup);

describe('<Img>', () => {
  it('resolves a relative path against the API host', () => {
    render(<Img src="/uploads/a.png" alt="proof" />);
    expect(screen.getByAltText('proof').getAttribute('src')).toBe(`${location.origin}/uploads/a.png`);
  });

  it('falls back to the default image when loading fails, and retries a new source', () => {
    const { rerender } = render(<Img src="/broken.png" alt="x" />);
    fireEvent.error(screen.getByAltText('x'));
    expect(screen.getByAltText('x').getAttribute('src')).toBe(DEFAULT_IMAGE);
    rerender(<Img src="/other.png" alt="x" />);
    expect(screen.getByAltText('x').getAttribute('src')).toBe(`${location.origin}/other.png`);
  });

  it('shows the default image when there is no path', () => {
    render(<Img src={null} alt="none" />);
    expect(screen.getByAltText('none').getAttribute('src')).toBe(DEFAULT_IMAGE);
  });
});
