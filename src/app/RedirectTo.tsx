/** /redirect/{path}: forwards to /{path}, keeping the search string and hash (a reload of the same route). */
import { Navigate, useLocation, useParams } from 'react-router-dom';

export function RedirectTo() {
  const rest = useParams()['*'] ?? '';
  const { search, hash } = useLocation();
  return <Navigate to={`/${rest}${search}${hash}`} replace />;
}
