/** The product named by `?id=` in the address, read once per id. */
import { useSearchParams } from 'react-router-dom';
import type { ProductView } from '../../../engine/index';
import { api } from '../../api';
import { useQuery, type QueryResult } from '../../ui/useQuery';

export function useProductId(): string {
  const [params] = useSearchParams();
  return params.get('id') ?? '';
}

export function useProduct(id: string): QueryResult<ProductView> {
  return useQuery(() => api.call('/api/product/detail', { id }, { silent: true }), id);
}
