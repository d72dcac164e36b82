/**
 * Navigation from outside React (the API client's 401 handling sends the member to /login): the router's
 * navigate function, registered by <NavigationBridge> inside the router once it has mounted. Before that
 * (a call answered before the first render) the page itself goes there.
 */
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';

let current: ((to: string) => void) | null = null;

export function navigateOutside(to: string): void {
  if (current) current(to);
  else window.location.assign(to);
}

/** Renders nothing; lends the router's navigate to navigateOutside while mounted. */
export function NavigationBridge() {
  const navigate = useNavigate();
  useEffect(() => {
    const go = (to: string) => void navigate(to);
    current = go;
    return () => {
      if (current === go) current = null;
    };
  }, [navigate]);
  return null;
}
